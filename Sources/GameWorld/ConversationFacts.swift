/// What the engine knows about the conversation a condition is checked in, and what the NPC remembers of it: the
/// conditions `first meeting`, `turns` and `topic` read the first three; the scripted model answers questions about
/// the conversation's past (`DialogueIntent.recall`) from the rest. The engine builds them from the game's whole
/// history, not from the model's working transcript, so they survive context trims.
public struct ConversationFacts: Hashable, Sendable, Codable {
    /// Whether the player and the NPC are meeting for the first time: the NPC has not spoken to the player before
    /// this conversation.
    public var isFirstMeeting: Bool
    /// How many lines the player has said to the NPC so far in their conversations (game events do not count).
    public var turns: Int
    /// What the conversation was last about, if the engine knows: an item id (`lantern`) or the name of one of the
    /// NPC's synonym groups (`locket`).
    public var lastTopic: String?
    /// The name the player gave the NPC in conversation to be called by ("my name is Tamsin"; "Hal" of "my name's Hal
    /// Brightwater"), the latest, if any: what `{player}` says.
    public var playerCalled: String?
    /// The whole name the player gave with `playerCalled` ("Hal Brightwater"; "Tamsin" when they gave one word), if
    /// any: what the NPC answers when asked the player's name or surname.
    public var playerFullName: String?
    /// Where the player told the NPC they are from ("I'm from Eastmarch"), the latest, if any.
    public var playerFrom: String?
    /// What the player told the NPC they do for a living ("I work as a scribe": `a scribe`), the latest, if
    /// anything.
    public var playerOccupation: String?
    /// The trades and gifts between the player and the NPC, oldest first.
    public var dealings: [Dealing]
    /// The NPC's offer waiting for the player's answer, if any.
    public var pendingOffer: TradeOffer?

    /// One trade or gift between the player and the NPC.
    public struct Dealing: Hashable, Sendable, Codable {
        /// Who gave what.
        public enum Kind: String, Hashable, Sendable, Codable {
            /// The player bought from the NPC.
            case bought
            /// The player sold to the NPC.
            case sold
            /// The player gave the NPC a gift.
            case gave
            /// The NPC gave the player something.
            case received
            /// The player gave the NPC an item in part exchange for what they bought in the same trade (a swap: "my
            /// rusty sword and 60 gold for the silver one"); recorded after that trade's `bought` dealings, with no
            /// gold.
            case tradedIn
        }

        /// Who gave what.
        public var kind: Kind
        /// The item.
        public var item: ItemID
        /// How many.
        public var quantity: Int
        /// The gold paid, for a trade.
        public var gold: Int

        /// Creates a dealing.
        ///
        /// - Parameters:
        ///   - kind: Who gave what.
        ///   - item: The item.
        ///   - quantity: How many.
        ///   - gold: The gold paid; 0 for a gift.
        public init(_ kind: Kind, item: ItemID, quantity: Int = 1, gold: Int = 0) {
            self.kind = kind
            self.item = item
            self.quantity = quantity
            self.gold = gold
        }
    }

    /// Creates conversation facts.
    ///
    /// - Parameters:
    ///   - isFirstMeeting: Whether it is the first meeting; `false` by default.
    ///   - turns: The player's lines so far; 0 by default.
    ///   - lastTopic: The last topic, if known.
    ///   - playerCalled: The name the player gave, if any.
    ///   - playerFullName: The whole name the player gave, if any; `playerCalled` when `nil`.
    ///   - playerFrom: Where the player said they are from, if anywhere.
    ///   - playerOccupation: What the player said they do for a living, if anything.
    ///   - dealings: The trades and gifts so far.
    ///   - pendingOffer: The offer waiting for an answer.
    public init(
        isFirstMeeting: Bool = false, turns: Int = 0, lastTopic: String? = nil, playerCalled: String? = nil,
        playerFullName: String? = nil, playerFrom: String? = nil, playerOccupation: String? = nil,
        dealings: [Dealing] = [],
        pendingOffer: TradeOffer? = nil
    ) {
        self.isFirstMeeting = isFirstMeeting
        self.turns = turns
        self.lastTopic = lastTopic
        self.playerCalled = playerCalled
        self.playerFullName = playerFullName ?? playerCalled
        self.playerFrom = playerFrom
        self.playerOccupation = playerOccupation
        self.dealings = dealings
        self.pendingOffer = pendingOffer
    }

    private enum CodingKeys: String, CodingKey {
        case isFirstMeeting, turns, lastTopic, playerCalled, playerFullName, playerFrom, playerOccupation, dealings
        case pendingOffer
    }

    /// Decodes facts; the members added after the first format (`playerCalled`, `playerFullName`, `playerFrom`,
    /// `playerOccupation`, `dealings`, `pendingOffer`) may be missing; a missing `playerFullName` is `playerCalled`.
    ///
    /// - Throws: `DecodingError` for a member of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isFirstMeeting = try container.decode(Bool.self, forKey: .isFirstMeeting)
        turns = try container.decode(Int.self, forKey: .turns)
        lastTopic = try container.decodeIfPresent(String.self, forKey: .lastTopic)
        playerCalled = try container.decodeIfPresent(String.self, forKey: .playerCalled)
        playerFullName = try container.decodeIfPresent(String.self, forKey: .playerFullName) ?? playerCalled
        playerFrom = try container.decodeIfPresent(String.self, forKey: .playerFrom)
        playerOccupation = try container.decodeIfPresent(String.self, forKey: .playerOccupation)
        dealings = try container.decodeIfPresent([Dealing].self, forKey: .dealings) ?? []
        pendingOffer = try container.decodeIfPresent(TradeOffer.self, forKey: .pendingOffer)
    }

    /// Encodes the facts, leaving out the memory members that are empty.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isFirstMeeting, forKey: .isFirstMeeting)
        try container.encode(turns, forKey: .turns)
        try container.encodeIfPresent(lastTopic, forKey: .lastTopic)
        try container.encodeIfPresent(playerCalled, forKey: .playerCalled)
        if playerFullName != playerCalled { try container.encodeIfPresent(playerFullName, forKey: .playerFullName) }
        try container.encodeIfPresent(playerFrom, forKey: .playerFrom)
        try container.encodeIfPresent(playerOccupation, forKey: .playerOccupation)
        if !dealings.isEmpty { try container.encode(dealings, forKey: .dealings) }
        try container.encodeIfPresent(pendingOffer, forKey: .pendingOffer)
    }
}
