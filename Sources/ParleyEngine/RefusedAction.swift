import GameWorld

/// A call of one of the game's actions that was refused before the game saw it: its arguments do not fit the action's
/// schema. The tool output told the model why; a feedback report is filed with the turn.
public struct RefusedAction: Sendable, Equatable {
    /// The NPC who called it.
    public var npc: NPCID
    /// The action.
    public var action: GameActionID
    /// The arguments as the model sent them, in JSON.
    public var arguments: String
    /// Why it was refused, in words.
    public var reasons: [String]
}
