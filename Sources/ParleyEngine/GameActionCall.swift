import GameWorld
import ParleyJSON

/// An NPC's call of one of the game's actions (`GameAction`, declared in the pack's `actions.json`), as the game's
/// action handler receives it: the arguments have been checked against the action's schema.
///
/// ```swift
/// game.onAction { call in
///     guard call.action == "openGate" else { return nil }
///     let opened = await myWorld.openGate(named: call.arguments["gate"]?.stringValue ?? "north")
///     return opened ? .output(["opened": true]) : .error("The winch is jammed.")
/// }
/// ```
public struct GameActionCall: Sendable, Hashable {
    /// The call's id: unique in the game, what `POST /v1/games/{id}/actions/{callId}` answers.
    public var callID: String
    /// The NPC who takes the action.
    public var npc: NPCID
    /// The action.
    public var action: GameActionID
    /// The arguments, a JSON object that fits the action's schema.
    public var arguments: JSONValue
    /// Whether the NPC waits for the game's answer (`await` in `actions.json`).
    public var awaitsAnswer: Bool
    /// The longest the NPC waits for the answer (`timeoutSeconds`).
    public var timeout: Duration

    /// Creates a call.
    ///
    /// - Parameters:
    ///   - callID: The call's id.
    ///   - npc: The NPC who takes the action.
    ///   - action: The action.
    ///   - arguments: The arguments.
    ///   - awaitsAnswer: Whether the NPC waits for the answer.
    ///   - timeout: The longest it waits.
    public init(
        callID: String, npc: NPCID, action: GameActionID, arguments: JSONValue, awaitsAnswer: Bool, timeout: Duration
    ) {
        self.callID = callID
        self.npc = npc
        self.action = action
        self.arguments = arguments
        self.awaitsAnswer = awaitsAnswer
        self.timeout = timeout
    }
}

/// The game's answer to an action an NPC took: what the NPC's model reads as the tool's output.
public enum GameActionAnswer: Sendable, Hashable {
    /// The action's result: any JSON, usually an object (`{"opened": true}`). Dialogue rules read it as `{result}`
    /// and `{result.NAME}`.
    case output(JSONValue)
    /// The action failed, in the game's words (`The winch is jammed.`).
    case error(String)
}

/// What a game does with its NPCs' actions: performs the call and returns its answer, or `nil` for none.
///
/// For an action that awaits its answer, the NPC waits until the handler returns, for at most the action's
/// `timeoutSeconds`; a handler that returns `nil`, or later than that, leaves the NPC with "the game did not answer".
/// For one that does not, the NPC goes on as soon as the handler returns (so return at once), and the answer is not
/// used. The handler runs outside the game's actor, on a task of its own that is cancelled when the time is up.
public typealias GameActionHandler = @Sendable (GameActionCall) async -> GameActionAnswer?
