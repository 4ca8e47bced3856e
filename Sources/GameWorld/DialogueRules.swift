/// An NPC's dialogue for the built-in scripted model: synonym groups and rules, from the NPC's `dialogue` field.
///
/// ```json
/// "dialogue": {
///   "synonyms": { "cellar": ["cellar", "basement", "down there"] },
///   "rules": [
///     { "id": "greet", "when": { "intent": "greet" }, "replies": ["Well met, friend!"] },
///     { "id": "cellar", "when": { "keywords": ["@cellar"] }, "replies": ["Dark as a pocket down there."] }
///   ]
/// }
/// ```
///
/// Rules are tried in order; the first that fits answers. An NPC without rules, or a line no rule fits, gets the
/// scripted model's plain built-in lines. The format is documented in `docs/modding.md` ("Dialogue").
public struct DialogueRules: Hashable, Sendable, Codable {
    /// Synonym groups by name: words and phrases a keyword `@name` stands for.
    public var synonyms: [String: [String]]
    /// The rules, in the order they are tried.
    public var rules: [DialogueRule]

    /// Creates dialogue rules.
    ///
    /// - Parameters:
    ///   - synonyms: Synonym groups by name.
    ///   - rules: The rules in order.
    public init(synonyms: [String: [String]] = [:], rules: [DialogueRule] = []) {
        self.synonyms = synonyms
        self.rules = rules
    }

    /// No rules: the NPC speaks only the scripted model's built-in lines.
    public static let none = DialogueRules()

    /// Whether there are no rules.
    public var isEmpty: Bool { rules.isEmpty }

    /// A rule's keywords with every `@group` replaced by the group's words.
    ///
    /// - Parameter condition: The rule's condition.
    /// - Returns: The words and phrases, in order; unknown groups add nothing.
    public func keywords(of condition: DialogueCondition) -> [String] {
        condition.keywords.flatMap { keyword -> [String] in
            guard keyword.hasPrefix("@") else { return [keyword] }
            return synonyms[String(keyword.dropFirst())] ?? []
        }
    }
}
