/// When a dialogue rule answers (`when` in a rule): every condition given must hold.
///
/// ```json
/// "when": { "intent": "askPrice", "item": "lantern" }
/// "when": { "keywords": ["mill", "flood", "@cellar"] }
/// "when": { "keywords": ["@cellar"], "if": "attitude >= 10" }
/// "when": { "event": "swordDrawn" }
/// ```
///
/// A rule without an intent answers what the player *says* that its other conditions fit, except trade requests
/// (`askStock`, `askPrice`, `buy`, `haggle`, `sell`, `offerGift`, which need a rule naming the intent); it never
/// answers a game event. A rule with no conditions at all answers every other line.
public struct DialogueCondition: Hashable, Sendable, Codable {
    /// The intents the rule answers (any of them); empty for any line the player says.
    public var intents: [DialogueIntent]
    /// Words or phrases of which the line must contain at least one; `@name` stands for every word of the
    /// synonym group `name`. Empty for no keyword condition.
    public var keywords: [String]
    /// The item the line, event or offer must be about, if the rule asks.
    public var item: DialogueItemCondition?
    /// Whether the line must contain a number (`true`) or must not (`false`); `nil` for no condition.
    public var number: Bool?
    /// A condition on the game and the conversation (`"if"`), checked against the context the engine gives the
    /// scripted model; `nil` for none. A model given no context never answers with a rule that has one.
    public var condition: Condition?
    /// The kinds of the game's own events (`"event"`: a `happened` event the game told the NPC of, with its `kind`)
    /// the rule answers, any of them; empty for no such condition. A rule with kinds answers only the `gameEvent`
    /// intent.
    public var events: [String] = []
    /// Whether a keyword must be said of the player (`"aboutPlayer": true`): a keyword counts only where the nearest
    /// word before it in its part of the sentence that says who, a `firstPerson` word (`I`), a `listener` word (`you`),
    /// a `thirdPerson` word (`he`), a `mine` word (`my`) or the NPC's name, is none, a `firstPerson` word, or a `mine`
    /// word right before the keyword. "I haven't eaten in days" and "my belly's rumbling" are about the player; "you
    /// look like you haven't eaten, Hesper" is about the NPC, "my mum is starving" about someone else. `false`:
    /// anywhere.
    public var aboutPlayer = false

    /// Creates a condition.
    ///
    /// - Parameters:
    ///   - intents: The intents the rule answers; empty for any line the player says.
    ///   - keywords: Words or phrases, or `@group` references; the line must contain one.
    ///   - item: The item the line must be about.
    ///   - number: Whether the line must (or must not) contain a number.
    ///   - condition: A condition on the game and the conversation.
    public init(
        intents: [DialogueIntent] = [], keywords: [String] = [], item: DialogueItemCondition? = nil,
        number: Bool? = nil, condition: Condition? = nil
    ) {
        self.intents = intents
        self.keywords = keywords
        self.item = item
        self.number = number
        self.condition = condition
    }

    /// A condition for one intent.
    ///
    /// - Parameters:
    ///   - intent: The intent.
    ///   - item: The item the line must be about, if any.
    /// - Returns: The condition.
    public static func intent(_ intent: DialogueIntent, item: DialogueItemCondition? = nil) -> DialogueCondition {
        DialogueCondition(intents: [intent], item: item)
    }

    /// Whether the condition holds no condition at all, and so answers every line the player says.
    public var isUnconditional: Bool {
        intents.isEmpty && keywords.isEmpty && item == nil && number == nil && condition == nil && events.isEmpty
    }

    /// Whether `text` is a well-formed kind of a game's event: an ASCII letter, then up to 63 letters, digits and `_`
    /// (`swordDrawn`, `bell_rang`).
    ///
    /// - Parameter text: The candidate kind.
    /// - Returns: Whether it is one.
    public static func isWellFormedEventKind(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
            text.unicodeScalars.count <= 64
        else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }

    private enum CodingKeys: String, CodingKey {
        case intents, keywords, item, number, events, aboutPlayer
        case condition = "if"
    }

    /// Decodes a condition; `events` and `aboutPlayer`, added later, may be missing (none, `false`).
    ///
    /// - Throws: `DecodingError` when a member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        intents = try container.decode([DialogueIntent].self, forKey: .intents)
        keywords = try container.decode([String].self, forKey: .keywords)
        item = try container.decodeIfPresent(DialogueItemCondition.self, forKey: .item)
        number = try container.decodeIfPresent(Bool.self, forKey: .number)
        condition = try container.decodeIfPresent(Condition.self, forKey: .condition)
        events = try container.decodeIfPresent([String].self, forKey: .events) ?? []
        aboutPlayer = try container.decodeIfPresent(Bool.self, forKey: .aboutPlayer) ?? false
    }

    /// Encodes a condition; `events` only when there are some and `aboutPlayer` only when `true`, so a condition
    /// without them encodes as it always did.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(intents, forKey: .intents)
        try container.encode(keywords, forKey: .keywords)
        try container.encodeIfPresent(item, forKey: .item)
        try container.encodeIfPresent(number, forKey: .number)
        try container.encodeIfPresent(condition, forKey: .condition)
        if !events.isEmpty { try container.encode(events, forKey: .events) }
        if aboutPlayer { try container.encode(aboutPlayer, forKey: .aboutPlayer) }
    }
}
