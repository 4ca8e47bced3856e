/// A condition on the game and the conversation, written in content as a short expression:
/// `"has lantern"`, `"gold >= 20"`, `"quest locket >= asked and not flag gate_open"`.
///
/// Beats, knowledge, goals and dialogue rules use conditions to say when they apply. The expression form is
/// documented in `docs/modding.md` ("Scripting"); in short:
///
/// | Term                          | Holds when                                                          |
/// |-------------------------------|---------------------------------------------------------------------|
/// | `has ITEM`, `has N ITEM`      | the player carries the item (at least N)                            |
/// | `gold OP N`                   | the player's gold compares so                                       |
/// | `flag NAME`                   | the flag is set                                                     |
/// | `counter NAME OP N`           | the counter compares so (0 until counted)                           |
/// | `attitude OP N`               | the NPC's attitude toward the player compares so (-100 to 100)      |
/// | `quest ID is STAGE`           | the quest is at that stage                                          |
/// | `quest ID OP STAGE`           | the quest's stage compares so, by the order of its stages           |
/// | `location LOCATION`           | the player is there                                                 |
/// | `first meeting`               | the player and the NPC meet for the first time                      |
/// | `turns OP N`                  | the player has said N lines to the NPC (compared so)                |
/// | `topic NAME`                  | the conversation was last about that item or synonym group          |
///
/// `OP` is one of `<`, `<=`, `=` (or `==`), `!=`, `>=`, `>`. Terms combine with `not`, `and` and `or` (in that
/// order of precedence) and parentheses. In JSON, an array of conditions means all of them.
///
/// ```swift
/// let condition = try Condition.parse("has lantern and (gold >= 20 or flag owes_player)").get()
/// condition.holds(in: ConditionContext(state: state, npc: "mira"))
/// ```
///
/// A condition encodes as its expression (`description`), and decodes by parsing one.
public indirect enum Condition: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `has N ITEM`: the player carries at least `quantity` of `item`.
    case has(item: ItemID, quantity: Int)
    /// `gold OP N`: the player's gold compares to `amount`.
    case gold(Comparison, amount: Int)
    /// `flag NAME`: the flag is set.
    case flag(String)
    /// `counter NAME OP N`: the counter compares to `value`.
    case counter(String, Comparison, value: Int)
    /// `attitude OP N`: the NPC's attitude toward the player compares to `value`.
    case attitude(Comparison, value: Int)
    /// `quest ID OP STAGE` (`is` for `=`): the quest's stage compares to `stage` by the order of the stages.
    case quest(QuestID, Comparison, stage: String)
    /// `location LOCATION`: the player is at the location.
    case location(LocationID)
    /// `first meeting`: the player and the NPC meet for the first time.
    case firstMeeting
    /// `turns OP N`: the number of lines the player said to the NPC compares to `count`.
    case turns(Comparison, count: Int)
    /// `topic NAME`: the conversation was last about this item or synonym group.
    case topic(String)
    /// `not X`: the condition does not hold.
    case not(Condition)
    /// `X and Y and ...`: every condition holds (an empty list always holds).
    case all([Condition])
    /// `X or Y or ...`: at least one condition holds (an empty list never holds).
    case any([Condition])

    // MARK: - Parsing

    /// Why an expression is not a condition: a message and a hint, as the content checker prints them.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong, for example `expected an item after "has"`.
        public let message: String
        /// How to fix it, for example `write "has lantern"`.
        public let hint: String?

        /// Creates a parse error.
        ///
        /// - Parameters:
        ///   - message: What is wrong.
        ///   - hint: How to fix it.
        public init(_ message: String, hint: String? = nil) {
            self.message = message
            self.hint = hint
        }

        /// The message and, in parentheses, the hint.
        public var description: String { message + (hint.map { " (\($0))" } ?? "") }
    }

    /// Parses an expression. Only its form is checked: whether the items, quests and places it names exist is for
    /// the content checker, which knows the pack.
    ///
    /// - Parameter text: The expression, for example `quest locket >= asked and not has lantern`.
    /// - Returns: The condition, or why the text is not one.
    public static func parse(_ text: String) -> Result<Condition, ParseError> {
        ConditionParser.parse(text).map(\.condition)
    }

    // MARK: - Terms

    /// The terms of the condition (everything but `not`, `and` and `or`), in the order written.
    public var terms: [Condition] {
        switch self {
        case .not(let inner): inner.terms
        case .all(let conditions), .any(let conditions): conditions.flatMap(\.terms)
        default: [self]
        }
    }

    // MARK: - Writing

    /// The condition as an expression, with the fewest parentheses: `has lantern and (gold >= 20 or flag x)`.
    public var description: String { written(inside: .top) }

    private enum Level: Int { case top, or, and, not }

    private func written(inside level: Level) -> String {
        switch self {
        case .has(let item, let quantity): quantity == 1 ? "has \(item)" : "has \(quantity) \(item)"
        case .gold(let comparison, let amount): "gold \(comparison) \(amount)"
        case .flag(let name): "flag \(name)"
        case .counter(let name, let comparison, let value): "counter \(name) \(comparison) \(value)"
        case .attitude(let comparison, let value): "attitude \(comparison) \(value)"
        case .quest(let quest, let comparison, let stage):
            comparison == .equal ? "quest \(quest) is \(stage)" : "quest \(quest) \(comparison) \(stage)"
        case .location(let location): "location \(location)"
        case .firstMeeting: "first meeting"
        case .turns(let comparison, let count): "turns \(comparison) \(count)"
        case .topic(let name): "topic \(name)"
        case .not(let inner): "not " + inner.written(inside: .not)
        case .all(let conditions):
            Self.join(conditions, with: "and", level: .and, inside: level)
        case .any(let conditions):
            Self.join(conditions, with: "or", level: .or, inside: level)
        }
    }

    private static func join(_ conditions: [Condition], with word: String, level: Level, inside: Level) -> String {
        if conditions.count == 1 { return conditions[0].written(inside: inside) }
        let text =
            conditions.isEmpty
            ? (word == "and" ? "not (first meeting and not first meeting)" : "first meeting and not first meeting")
            : conditions.map { $0.written(inside: level) }.joined(separator: " \(word) ")
        return inside.rawValue > level.rawValue || (conditions.isEmpty && inside != .top) ? "(\(text))" : text
    }

    // MARK: - Codable

    /// Decodes a condition from its expression.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a condition.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        switch Self.parse(text) {
        case .success(let condition): self = condition
        case .failure(let error):
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a condition: \(error)")
        }
    }

    /// Encodes the condition as its expression.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
