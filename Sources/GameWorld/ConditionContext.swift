/// Where a condition is checked: the game state, the NPC it concerns, and facts about the conversation.
///
/// The engine builds one when it needs to know which beats, knowledge, goals or dialogue rules apply:
///
/// ```swift
/// let context = ConditionContext(
///     state: state, npc: "pip", conversation: ConversationFacts(isFirstMeeting: false, turns: 4, lastTopic: "cellar"))
/// pip.knowledge(in: context)   // the entries whose conditions hold
/// ```
public struct ConditionContext: Sendable {
    /// The game as it is now.
    public var state: GameState
    /// The NPC the condition belongs to (its attitude is the one `attitude` reads), or `nil` for none.
    public var npc: NPCID?
    /// Facts about the conversation with that NPC.
    public var conversation: ConversationFacts

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - state: The game state.
    ///   - npc: The NPC the condition belongs to, if any.
    ///   - conversation: Facts about the conversation; by default not a first meeting, no turns and no topic.
    public init(state: GameState, npc: NPCID? = nil, conversation: ConversationFacts = ConversationFacts()) {
        self.state = state
        self.npc = npc
        self.conversation = conversation
    }
}
