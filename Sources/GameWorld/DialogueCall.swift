import ParleyJSON

/// An action a dialogue rule asks the game for (`calls` in a rule): an NPC tool, or an action the game declares in
/// `actions.json`, and its arguments.
///
/// ```json
/// { "tool": "giveItem", "arguments": { "item": "bread", "quantity": 1 } }
/// { "tool": "acceptGift", "arguments": { "item": "{item}", "quantity": "{quantity}" } }
/// { "tool": "openGate", "arguments": { "gate": "north" } }
/// ```
///
/// String arguments may hold placeholders, filled when the call is made; in arguments, `{item}` is the item's id
/// and `{quantity}` and `{price}` may stand for a whole argument to give a number.
public struct DialogueCall: Hashable, Sendable, Codable {
    /// What a call calls: one of the NPC tools, or one of the game's actions.
    public enum Callee: Hashable, Sendable, CustomStringConvertible {
        /// A built-in NPC tool.
        case tool(NPCTool)
        /// An action the game declares (`actions.json`).
        case action(GameActionID)

        /// The tool's name, as models call it: `giveItem`, `openGate`.
        public var name: String {
            switch self {
            case .tool(let tool): tool.rawValue
            case .action(let action): action.rawValue
            }
        }

        /// The name.
        public var description: String { name }

        /// The callee a name names: the NPC tool of that name, else the game's action of that id.
        ///
        /// - Parameter name: The name.
        public init(name: String) {
            self = NPCTool(rawValue: name).map(Callee.tool) ?? .action(GameActionID(name))
        }
    }

    /// What the call calls.
    public var callee: Callee
    /// The arguments: a JSON object whose string members may hold placeholders.
    public var arguments: JSONValue

    /// The NPC tool called, or `nil` for one of the game's actions.
    public var tool: NPCTool? {
        if case .tool(let tool) = callee { return tool }
        return nil
    }

    /// The game's action called, or `nil` for an NPC tool.
    public var action: GameActionID? {
        if case .action(let action) = callee { return action }
        return nil
    }

    /// Creates a call of an NPC tool.
    ///
    /// - Parameters:
    ///   - tool: The tool.
    ///   - arguments: The arguments, a JSON object.
    public init(tool: NPCTool, arguments: JSONValue = .object(JSONObject())) {
        self.callee = .tool(tool)
        self.arguments = arguments
    }

    /// Creates a call of one of the game's actions.
    ///
    /// - Parameters:
    ///   - action: The action's id.
    ///   - arguments: The arguments, a JSON object.
    public init(action: GameActionID, arguments: JSONValue = .object(JSONObject())) {
        self.callee = .action(action)
        self.arguments = arguments
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case tool, arguments
    }

    /// Decodes a call as content writes it: `{"tool", "arguments"}`, the tool an NPC tool's name or an action's id.
    ///
    /// - Throws: `DecodingError` when a member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        callee = Callee(name: try container.decode(String.self, forKey: .tool))
        arguments = try container.decode(JSONValue.self, forKey: .arguments)
    }

    /// Encodes the call as content writes it.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(callee.name, forKey: .tool)
        try container.encode(arguments, forKey: .arguments)
    }
}
