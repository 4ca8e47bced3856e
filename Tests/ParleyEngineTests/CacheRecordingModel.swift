import LanguageModels
import LanguageModelsTesting
import Synchronization

@testable import ParleyEngine

/// A model double that records prewarms and plays a server with slot files at the engine's level: one slot, whose
/// holder is written to `disk` when another key takes the slot or `saveCaches()` is called, and read back when its
/// key returns. `firstUses` says, for each key, whether its first request found its cache restored or cold.
final class CacheRecordingModel: LanguageModel, ModelCacheKeeping {
    /// A prewarm the model was asked for.
    struct Prewarm: Sendable {
        var key: String
        var request: GenerationRequest
    }

    /// How a key's first request found its cache.
    enum FirstUse: Sendable, Equatable {
        case restored
        case cold
    }

    /// The cache files, shared by the "processes" of a test.
    final class Disk: Sendable {
        // The Mutex protects the file names; the class lets two models share them.
        private let names = Mutex<Set<String>>([])
        var files: Set<String> { names.withLock { $0 } }
        func write(_ name: String) { names.withLock { _ = $0.insert(name) } }
    }

    private struct State {
        var holder: String?
        var dirty = false
        var firstUses: [String: FirstUse] = [:]
    }

    let key: String?
    let disk: Disk
    private let state: SharedState
    private let base = MockLanguageModel { _ in .text("Hm, well.") }

    /// What copies of one model share.
    private final class SharedState: Sendable {
        // The Mutexes protect the slot and the prewarm gate; the class lets the keyed copies share them.
        let slot = Mutex(State())
        let held = Mutex<[CheckedContinuation<Void, Never>]?>(nil)
        let prewarms = Mutex<(asked: [Prewarm], waiting: [CheckedContinuation<Prewarm, Never>])>(([], []))
        init(holdsPrewarms: Bool) {
            if holdsPrewarms { held.withLock { $0 = [] } }
        }
    }

    init(disk: Disk = Disk(), holdsPrewarms: Bool = false) {
        self.key = nil
        self.disk = disk
        self.state = SharedState(holdsPrewarms: holdsPrewarms)
    }

    private init(copying model: CacheRecordingModel, key: String) {
        self.key = key
        self.disk = model.disk
        self.state = model.state
    }

    /// The copy for one NPC.
    func keyed(_ key: String) -> CacheRecordingModel { CacheRecordingModel(copying: self, key: key) }

    var id: String { "recorder" }
    var version: String { "1" }
    var contextSize: Int { get async throws { 1 << 20 } }
    var firstUses: [String: FirstUse] { state.slot.withLock { $0.firstUses } }

    func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        try await base.tokenCount(for: entries)
    }

    func tokenCount(for schema: GenerationSchema) async throws -> Int { try await base.tokenCount(for: schema) }

    func generate(_ request: GenerationRequest) async throws -> Generation {
        take()
        return try await base.generate(request)
    }

    /// The slot goes to this copy's key: its holder is written first if it changed, and the key's file is read.
    private func take() {
        guard let key else { return }
        let disk = self.disk
        state.slot.withLock { slot in
            if slot.holder != key {
                if let holder = slot.holder, slot.dirty { disk.write(holder) }
                if slot.firstUses[key] == nil { slot.firstUses[key] = disk.files.contains(key) ? .restored : .cold }
                slot.holder = key
            }
            slot.dirty = true
        }
    }

    func prewarm(for request: GenerationRequest) async {
        let prewarm = Prewarm(key: key ?? "", request: request)
        let waiter = state.prewarms.withLock { prewarms -> CheckedContinuation<Prewarm, Never>? in
            if prewarms.waiting.isEmpty {
                prewarms.asked.append(prewarm)
                return nil
            }
            return prewarms.waiting.removeFirst()
        }
        waiter?.resume(returning: prewarm)
        await withCheckedContinuation { continuation in
            let hold = state.held.withLock { held -> Bool in
                guard held != nil else { return false }
                held?.append(continuation)
                return true
            }
            if !hold { continuation.resume() }
        }
    }

    /// Lets every held prewarm return, and the next ones at once.
    func releasePrewarms() {
        let held = state.held.withLock { held in
            defer { held = nil }
            return held ?? []
        }
        for continuation in held { continuation.resume() }
    }

    /// The next prewarm asked for, in order; waits for it (the suite's time limit ends a wait for none).
    func nextPrewarm() async -> Prewarm? {
        await withCheckedContinuation { continuation in
            let ready = state.prewarms.withLock { prewarms -> Prewarm? in
                if prewarms.asked.isEmpty {
                    prewarms.waiting.append(continuation)
                    return nil
                }
                return prewarms.asked.removeFirst()
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func saveCaches() async {
        let disk = self.disk
        state.slot.withLock { slot in
            if let holder = slot.holder, slot.dirty { disk.write(holder) }
            slot.dirty = false
        }
    }
}
