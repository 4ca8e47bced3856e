import GameWorld

/// A call of one of the game's actions that was refused before the game saw it: its arguments do not fit the action's
/// schema (the tool output told the model why; a feedback report is filed with the turn), or the player's spoken line
/// was heard too unsurely to act on (`unclearSpeech`).
public struct RefusedAction: Sendable, Equatable {
    /// The NPC who called it.
    public var npc: NPCID
    /// The action.
    public var action: GameActionID
    /// The arguments as the model sent them, in JSON.
    public var arguments: String
    /// Why it was refused, in words.
    public var reasons: [String]
    /// Whether it was refused only because the player's spoken line was heard too unsurely to act on
    /// (`RefusalReason.unclearSpeech`): the game never saw it, and no feedback report is filed for it.
    public var unclearSpeech = false
}
