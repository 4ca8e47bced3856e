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
/// `docs/modding.md` for how the scripted model picks a rule and a variant.
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

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - id: The rule's id.
    ///   - when: When it answers.
    ///   - replies: Reply variants for any outcome.
    ///   - outcomes: Reply variants for particular outcomes.
    ///   - calls: Actions instead of the built-in flow.
    public init(
        id: String, when: DialogueCondition, replies: [String] = [], outcomes: [DialogueOutcome: [String]] = [:],
        calls: [DialogueCall]? = nil
    ) {
        self.id = id
        self.when = when
        self.replies = replies
        self.outcomes = outcomes
        self.calls = calls
    }

    /// The reply variants for an outcome: its own list if the rule has one, otherwise `replies`.
    ///
    /// - Parameter outcome: The outcome, or `nil` when there is none.
    /// - Returns: The variants, possibly empty.
    public func replies(for outcome: DialogueOutcome?) -> [String] {
        if let outcome, let own = outcomes[outcome] { return own }
        return replies
    }
}
