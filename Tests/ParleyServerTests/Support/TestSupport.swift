import Foundation
import ParleyHTTP
import ParleyServer
import Synchronization
import Testing

/// Timeouts for tests: small where a test waits for one to pass, generous for everything else, so that a slow,
/// busy machine can only make a test slower, never make it fail.
extension HTTPServer.Timeouts {
    /// Ten minutes for a client's steps (a request sent one byte at a time took over 30 s on a machine loaded to 12),
    /// 30 s for the server's own waits when closing and stopping.
    static let generous = HTTPServer.Timeouts(
        header: .seconds(600), body: .seconds(600), idle: .seconds(600), write: .seconds(600), linger: .seconds(30),
        shutdownGrace: .seconds(30))

    static func generous(_ change: (inout HTTPServer.Timeouts) -> Void) -> HTTPServer.Timeouts {
        var timeouts = generous
        change(&timeouts)
        return timeouts
    }
}

/// Runs `body` with a started server, and stops the server afterwards, also when `body` throws.
func withServer<T>(
    _ configuration: HTTPServer.Configuration = HTTPServer.Configuration(timeouts: .generous),
    router: HTTPRouter,
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    let server = try HTTPServer(configuration: configuration, router: router)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A router with a few plain routes most tests use.
func echoRouter() -> HTTPRouter {
    var router = HTTPRouter()
    router.get("/hello") { _ in .text("hello") }
    router.post("/echo") { request in .bytes(request.body, contentType: "application/octet-stream") }
    router.get("/games/{id}/transcript/{npc}") { request in
        .json(#"{"id":"\#(request.pathParameters["id"]!)","npc":"\#(request.pathParameters["npc"]!)"}"#)
    }
    return router
}

/// Something a test waits for that another task (a handler, a producer) signals, with a bound so that a test
/// fails instead of hanging when it never comes. Any number of tasks may wait.
final class Signal: Sendable {
    private struct State {
        var fired = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    var hasFired: Bool { state.withLock { $0.fired } }

    /// Waits until fired; `false` when `timeout` passed first.
    func wait(timeout: Duration = patience) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitUntilFired() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return hasFired
    }

    private func waitUntilFired() async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    guard !state.fired, !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

/// A value shared with handlers, behind a lock.
final class LockedValue<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) {
        storage = Mutex(value)
    }

    var value: Value { storage.withLock { $0 } }

    func set(_ value: Value) {
        storage.withLock { $0 = value }
    }

    /// Changes the value under the lock and returns what `change` returns.
    func update<Result: Sendable>(_ change: @Sendable (inout Value) -> Result) -> Result {
        storage.withLock { change(&$0) }
    }
}

/// Collects what a server logs.
final class LogRecorder: Sendable {
    private let entries = Mutex<[HTTPServerLogEntry]>([])

    var sink: @Sendable (HTTPServerLogEntry) -> Void {
        { entry in self.entries.withLock { $0.append(entry) } }
    }

    var all: [HTTPServerLogEntry] { entries.withLock { $0 } }

    func events(_ event: HTTPServerLogEntry.Event) -> [HTTPServerLogEntry] {
        all.filter { $0.event == event }
    }

    /// Waits until an entry matches; `false` after `timeout`.
    func wait(
        timeout: Duration = patience, for matches: @escaping @Sendable (HTTPServerLogEntry) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !all.contains(where: matches) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}

/// How long a test waits for a correct server before it calls it broken: ten minutes.
///
/// What a test measures here is not only the server: every request waits for the cooperative pool, which the whole
/// suite shares (about 1,600 tests at once, many playing games on it), so on a two-core machine with two compiles
/// beside the suite (load average 12) a trivial request took more than a minute to be answered, the server's
/// 300 ms idle timer more than a minute to close a connection, and eleven tests failed that way with the old minute.
/// A broken server still fails, after this long; a timeout a test expects to fire is given explicitly and short.
let patience: Duration = .seconds(600)

/// Waits until `condition` holds, checking every few milliseconds; `false` after `timeout` (`patience` by default: a
/// server beside compiles on two cores is slow, not wrong).
func eventually(timeout: Duration = patience, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// A seeded random number generator (SplitMix64), so that a failing random case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
