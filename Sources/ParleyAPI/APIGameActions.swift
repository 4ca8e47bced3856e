import GameWorld
import ParleyEngine
import ParleyJSON
import Synchronization

/// The game's actions (`actions.json`) as `parley serve` plays them for one game: each call an NPC makes is sent as an
/// `action` event while its line runs, and a call that awaits its answer waits for
/// `POST /v1/games/{id}/actions/{callId}` (`answer(_:with:)`), until the action's time limit.
///
/// Answers never wait for the game's lines (which run one at a time, and one of which is waiting for this answer): the
/// calls waiting for an answer are kept here, behind a `Mutex`, and answered from any task. A waiting call holds no
/// thread: it is a continuation, resumed by the answer or, when the time is up, by the engine's cancellation.
final class APIGameActions: Sendable {
    /// A call waiting for its answer, or one whose wait ended before it began (the turn was cancelled first).
    private enum Waiter {
        case waiting(CheckedContinuation<GameActionAnswer?, Never>)
        case cancelled
    }

    private struct State {
        /// Where the line that runs now sends its events; `nil` between lines.
        var sink: (@Sendable (APIEvent) -> Void)?
        /// The calls waiting for the game's answer, by call id.
        var waiting: [String: Waiter] = [:]
    }

    private let state = Mutex(State())

    /// Sends the events of calls to `sink` while a line runs (`nil` when it has run).
    func send(to sink: (@Sendable (APIEvent) -> Void)?) {
        state.withLock { $0.sink = sink }
    }

    /// The handler a game's host runs its NPCs' actions with: it sends the call's `action` event, then, for an
    /// action that awaits its answer, waits for `answer(_:with:)` (the engine stops waiting at the action's time
    /// limit, by cancelling this task).
    ///
    /// - Parameter world: The world, to name NPCs.
    /// - Returns: The handler.
    func handler(in world: World) -> GameActionHandler {
        { [self] call in
            let event = Self.event(for: call, in: world)
            guard call.awaitsAnswer else {
                emit(event)
                return nil
            }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let cancelled = state.withLock { state -> Bool in
                        if case .cancelled? = state.waiting[call.callID] {
                            state.waiting[call.callID] = nil
                            return true
                        }
                        state.waiting[call.callID] = .waiting(continuation)
                        return false
                    }
                    // The call is waiting before the game hears of it, so an answer sent at once finds it.
                    if cancelled { continuation.resume(returning: nil) } else { emit(event) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> Waiter? in
                    let waiter = state.waiting[call.callID]
                    state.waiting[call.callID] = waiter == nil ? .cancelled : nil
                    return waiter
                }
                if case .waiting(let continuation)? = waiter { continuation.resume(returning: nil) }
            }
        }
    }

    /// Answers a call that waits for the game's answer.
    ///
    /// - Parameters:
    ///   - callID: The call's id, from its `action` event.
    ///   - answer: The game's answer.
    /// - Returns: `false` when no call of that id is waiting (it was answered, its time is up, it does not await an
    ///   answer, or there never was one).
    func answer(_ callID: String, with answer: GameActionAnswer) -> Bool {
        let waiter = state.withLock { state -> Waiter? in
            guard case .waiting? = state.waiting[callID] else { return nil }
            return state.waiting.removeValue(forKey: callID)
        }
        guard case .waiting(let continuation)? = waiter else { return false }
        continuation.resume(returning: answer)
        return true
    }

    private func emit(_ event: APIEvent) {
        state.withLock { $0.sink }?(event)
    }

    /// The `action` event of a call: `{"type": "action", "npc", "callId", "action", "arguments", "await",
    /// "timeoutSeconds"}`.
    static func event(for call: GameActionCall, in world: World) -> APIEvent {
        let (seconds, attoseconds) = call.timeout.components
        let timeout: JSONValue =
            attoseconds == 0 ? .integer(Int(seconds)) : .double(Double(seconds) + Double(attoseconds) / 1e18)
        return APIEvent(
            .action, npc: .init(id: call.npc, name: world.name(of: call.npc)),
            JSONObject([
                ("callId", .string(call.callID)), ("action", .string(call.action.rawValue)),
                ("arguments", call.arguments), ("await", .bool(call.awaitsAnswer)),
                ("timeoutSeconds", timeout),
            ]))
    }
}
