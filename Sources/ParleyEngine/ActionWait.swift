import Synchronization

/// How the wait for the game's answer to one call ended.
enum ActionWait: Sendable, Equatable {
    /// The handler answered in time.
    case answered(GameActionAnswer)
    /// The handler returned in time without an answer.
    case noAnswer
    /// The time was up first (or the turn was cancelled).
    case timedOut

    /// Runs the handler for a call until it returns or the call's time is up, whichever comes first, without holding a
    /// thread: the handler runs on a task of its own, the time limit is a sleeping task, and the turn's task waits on a
    /// continuation the first of them resumes. The other is cancelled; a handler that ignores cancellation cannot keep
    /// the turn waiting. Cancelling the turn ends the wait at once.
    ///
    /// - Parameters:
    ///   - call: The call.
    ///   - handler: The game's handler.
    /// - Returns: How the wait ended.
    static func answer(to call: GameActionCall, from handler: @escaping GameActionHandler) async -> ActionWait {
        let race = Race()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.start(continuation)
                race.add(Task { race.finish(await handler(call).map(ActionWait.answered) ?? .noAnswer) })
                race.add(
                    Task {
                        try? await Task.sleep(for: call.timeout)
                        race.finish(.timedOut)
                    })
            }
        } onCancel: {
            race.finish(.timedOut)
        }
    }

    /// The first of the handler and the timer to finish resumes the waiting turn, once; the others are cancelled. Its
    /// state is behind a `Mutex`.
    private final class Race: Sendable {
        private struct State {
            var continuation: CheckedContinuation<ActionWait, Never>?
            var result: ActionWait?
            var tasks: [Task<Void, Never>] = []
        }
        private let state = Mutex(State())

        /// Waits with `continuation`, or resumes it at once when the race is already over (the turn was cancelled).
        func start(_ continuation: CheckedContinuation<ActionWait, Never>) {
            let done = state.withLock { state -> ActionWait? in
                if let result = state.result { return result }
                state.continuation = continuation
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }

        /// Keeps a task to cancel when the race is over, or cancels it now when it is.
        func add(_ task: Task<Void, Never>) {
            let over = state.withLock { state -> Bool in
                if state.result != nil { return true }
                state.tasks.append(task)
                return false
            }
            if over { task.cancel() }
        }

        /// Ends the race with `result`, unless it is over already.
        func finish(_ result: ActionWait) {
            let (continuation, tasks) = state.withLock {
                state -> (CheckedContinuation<ActionWait, Never>?, [Task<Void, Never>]) in
                guard state.result == nil else { return (nil, []) }
                state.result = result
                defer {
                    state.continuation = nil
                    state.tasks = []
                }
                return (state.continuation, state.tasks)
            }
            continuation?.resume(returning: result)
            for task in tasks { task.cancel() }
        }
    }
}
