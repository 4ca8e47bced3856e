/// One dialogue rule: when it answers, the NPC actions it asks for, and what the NPC says.
///
/// ```json
/// {
///   "id": "lantern_price",
///   "when": { "intent": "askPrice", "item": "lantern" },
///   "replies": ["The lantern? {price} gold, friend, and it never blows out."],
///   "outcomes": { "missing": ["Sold my last lantern, friend. Ask me tomorrow."] }
/// }
/// ```
///
/// The reply for an outcome is chosen from `outcomes[outcome]` when present, otherwise from `replies`. See
/// `docs/modding.md` for how the scripted model picks a rule and a variant. A rule's `effects` happen when it
/// answers (the engine runs them, through the world's rules).
public struct DialogueRule: Hashable, Sendable, Codable, Identifiable {
    /// The rule's id, unique among the NPC's rules; it also seeds the choice of variant.
    public var id: String
    /// When the rule answers.
    public var when: DialogueCondition
    /// Reply variants for any outcome without its own list; may be empty when `outcomes` covers what is needed.
    public var replies: [String]
    /// Reply variants for particular outcomes.
    public var outcomes: [DialogueOutcome: [String]]
    /// Actions to ask the game for instead of the intent's built-in flow; `nil` to keep the flow (or, without
    /// an intent, to ask for nothing), empty to ask for nothing.
    public var calls: [DialogueCall]?
    /// What happens in the game when the rule answers; empty for nothing.
    public var effects: [Effect]

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - id: The rule's id.
    ///   - when: When it answers.
    ///   - replies: Reply variants for any outcome.
    ///   - outcomes: Reply variants for particular outcomes.
    ///   - calls: Actions instead of the built-in flow.
    ///   - effects: What happens when it answers.
    public init(
        id: String, when: DialogueCondition, replies: [String] = [], outcomes: [DialogueOutcome: [String]] = [:],
        calls: [DialogueCall]? = nil, effects: [Effect] = []
    ) {
        self.id = id
        self.when = when
        self.replies = replies
        self.outcomes = outcomes
        self.calls = calls
        self.effects = effects
    }

    /// The reply variants for an outcome: its own list if the rule has one, otherwise `replies`.
    ///
    /// - Parameter outcome: The outcome, or `nil` when there is none.
    /// - Returns: The variants, possibly empty.
    public func replies(for outcome: DialogueOutcome?) -> [String] {
        if let outcome, let own = outcomes[outcome] { return own }
        return replies
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case id, when, replies, outcomes, calls, effects
    }

    /// Decodes a rule; `effects` may be missing (none).
    ///
    /// - Throws: `DecodingError` when a member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        when = try container.decode(DialogueCondition.self, forKey: .when)
        replies = try container.decode([String].self, forKey: .replies)
        outcomes = try container.decode([DialogueOutcome: [String]].self, forKey: .outcomes)
        calls = try container.decodeIfPresent([DialogueCall].self, forKey: .calls)
        effects = try container.decodeIfPresent([Effect].self, forKey: .effects) ?? []
    }

    /// Encodes a rule; `effects` only when there are some, so a rule without effects encodes as it always did.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(when, forKey: .when)
        try container.encode(replies, forKey: .replies)
        try container.encode(outcomes, forKey: .outcomes)
        try container.encodeIfPresent(calls, forKey: .calls)
        if !effects.isEmpty { try container.encode(effects, forKey: .effects) }
    }
}
