import Synchronization

/// Something that happens once (the listener closed, the server finished), which tasks can wait for, with a
/// timeout or until cancelled.
final class OneShotEvent: Sendable {
    private struct State {
        var isSet = false
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Whether it happened.
    var isSet: Bool { state.withLock { $0.isSet } }

    /// Marks it as happened and wakes every waiter. Safe to call more than once.
    func set() {
        let waiters = state.withLock { state in
            state.isSet = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Waits until it happened, or the task is cancelled.
    func wait() async {
        let id: UInt64? = state.withLock { state in
            guard !state.isSet else { return nil }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.isSet || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Waits until it happened, or `timeout` passed.
    ///
    /// - Returns: Whether it happened.
    func wait(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.wait()
                return self.isSet
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return self.isSet
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first || isSet
        }
    }
}
