/// Something an NPC knows, or wants, when a condition holds (`knowledge` and `goals` in an NPC file).
///
/// ```json
/// "knowledge": [
///   { "id": "mill_report", "when": "quest locket >= asked",
///     "text": "Aurelio Finch reported the Moonpetal Locket lost at the old mill on the night of the flood." }
/// ]
/// ```
///
/// The engine puts the entries that hold into the NPC's instructions for server models, so an NPC knows only what
/// it should, when it should; `NPC.knowledge(in:)` and `NPC.goals(in:)` give them.
public struct KnowledgeEntry: Hashable, Sendable, Codable, Identifiable {
    /// The entry's id, unique among the NPC's knowledge (or goals).
    public var id: String
    /// When the NPC knows (or wants) it; always when `nil`.
    public var condition: Condition?
    /// What the NPC knows or wants, in words for the model.
    public var text: String

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - id: The entry's id.
    ///   - condition: When it holds; always when `nil`.
    ///   - text: What the NPC knows or wants.
    public init(id: String, condition: Condition? = nil, text: String) {
        self.id = id
        self.condition = condition
        self.text = text
    }

    /// Whether the entry holds in a context.
    ///
    /// - Parameter context: The game, the NPC and the conversation.
    /// - Returns: `true` when it has no condition or its condition holds.
    public func holds(in context: ConditionContext) -> Bool { condition?.holds(in: context) ?? true }

    private enum CodingKeys: String, CodingKey {
        case id, when, text
    }

    /// Decodes an entry from its content form (`id`, `when`, `text`).
    ///
    /// - Throws: `DecodingError` when a member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        condition = try container.decodeIfPresent(Condition.self, forKey: .when)
        text = try container.decode(String.self, forKey: .text)
    }

    /// Encodes the entry in its content form.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(condition, forKey: .when)
        try container.encode(text, forKey: .text)
    }
}
