/// When a dialogue rule answers (`when` in a rule): every condition given must hold.
///
/// ```json
/// "when": { "intent": "askPrice", "item": "lantern" }
/// "when": { "keywords": ["mill", "flood", "@cellar"] }
/// "when": { "keywords": ["@cellar"], "if": "attitude >= 10" }
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
        intents.isEmpty && keywords.isEmpty && item == nil && number == nil && condition == nil
    }

    private enum CodingKeys: String, CodingKey {
        case intents, keywords, item, number
        case condition = "if"
    }
}
