/// What the engine knows about the conversation a condition is checked in: the conditions `first meeting`,
/// `turns` and `topic` read these.
public struct ConversationFacts: Hashable, Sendable, Codable {
    /// Whether the player and the NPC are meeting for the first time: the NPC has not spoken to the player before
    /// this conversation.
    public var isFirstMeeting: Bool
    /// How many lines the player has said to the NPC so far in their conversations (game events do not count).
    public var turns: Int
    /// What the conversation was last about, if the engine knows: an item id (`lantern`) or the name of one of the
    /// NPC's synonym groups (`locket`).
    public var lastTopic: String?

    /// Creates conversation facts.
    ///
    /// - Parameters:
    ///   - isFirstMeeting: Whether it is the first meeting; `false` by default.
    ///   - turns: The player's lines so far; 0 by default.
    ///   - lastTopic: The last topic, if known.
    public init(isFirstMeeting: Bool = false, turns: Int = 0, lastTopic: String? = nil) {
        self.isFirstMeeting = isFirstMeeting
        self.turns = turns
        self.lastTopic = lastTopic
    }
}
