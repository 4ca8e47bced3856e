import LanguageModels
import Synchronization

/// A model that measures the time spent in another: in generation, in token counting, and until the first
/// streamed update. The benchmarks subtract generation from a turn's wall time to get the engine's own work.
///
/// With `buffersStreams`, a streamed generation is drained from the wrapped model first (that time counts as
/// generation), then replayed to the session, whose handling of the updates counts as the engine's. Without it,
/// updates pass through as they come, for time-to-first-token measurements against a real server.
final class TimedModel<Base: LanguageModel>: LanguageModel {
    /// What was measured since the last `take()`.
    struct Totals: Sendable {
        /// Time inside the wrapped model's `generate` or draining its stream.
        var generation: Duration = .zero
        /// Time inside the wrapped model's `tokenCount` (the session's context pre-check).
        var tokenCounting: Duration = .zero
        /// Requests made.
        var generations = 0
        /// From the first `streamGeneration` call to its first update, for the first request since `take()`.
        var firstUpdate: Duration?
    }

    let base: Base
    let buffersStreams: Bool
    private let totals = Mutex(Totals())
    private let clock = ContinuousClock()

    init(_ base: Base, buffersStreams: Bool) {
        self.base = base
        self.buffersStreams = buffersStreams
    }

    var id: String { base.id }
    var version: String { base.version }
    var capabilities: LanguageModelCapabilities { base.capabilities }
    var writesFreeText: Bool { base.writesFreeText }
    var contextSize: Int { get async throws { try await base.contextSize } }

    /// Returns what was measured and starts again from zero.
    func take() -> Totals {
        totals.withLock { totals in
            defer { totals = Totals() }; return totals
        }
    }

    func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        let start = clock.now
        defer { add(\.tokenCounting, since: start) }
        return try await base.tokenCount(for: entries)
    }

    func tokenCount(for schema: GenerationSchema) async throws -> Int {
        let start = clock.now
        defer { add(\.tokenCounting, since: start) }
        return try await base.tokenCount(for: schema)
    }

    func tokenCount(for request: GenerationRequest) async throws -> Int {
        let start = clock.now
        defer { add(\.tokenCounting, since: start) }
        return try await base.tokenCount(for: request)
    }

    func generate(_ request: GenerationRequest) async throws -> Generation {
        let start = clock.now
        defer { add(\.generation, since: start) }
        totals.withLock { $0.generations += 1 }
        return try await base.generate(request)
    }

    func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Error> {
        totals.withLock { $0.generations += 1 }
        let start = clock.now
        let upstream = base.streamGeneration(request)
        let buffers = buffersStreams
        return AsyncThrowingStream { continuation in
            let task = Task {
                var updates: [GenerationUpdate] = []
                do {
                    for try await update in upstream {
                        self.noteFirstUpdate(since: start)
                        if buffers { updates.append(update) } else { continuation.yield(update) }
                    }
                } catch {
                    self.add(\.generation, since: start)
                    continuation.finish(throwing: error)
                    return
                }
                self.add(\.generation, since: start)
                for update in updates { continuation.yield(update) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func prewarm(for request: GenerationRequest) async { await base.prewarm(for: request) }
    func redactingSecrets(in text: String) -> String { base.redactingSecrets(in: text) }

    private func add(_ key: WritableKeyPath<Totals, Duration>, since start: ContinuousClock.Instant) {
        let elapsed = clock.now - start
        totals.withLock { $0[keyPath: key] += elapsed }
    }

    private func noteFirstUpdate(since start: ContinuousClock.Instant) {
        let elapsed = clock.now - start
        totals.withLock { totals in
            if totals.firstUpdate == nil { totals.firstUpdate = elapsed }
        }
    }
}
