import ParleyJSON

/// An action a dialogue rule asks the game for (`calls` in a rule): an NPC tool and its arguments.
///
/// ```json
/// { "tool": "giveItem", "arguments": { "item": "bread", "quantity": 1 } }
/// { "tool": "acceptGift", "arguments": { "item": "{item}", "quantity": "{quantity}" } }
/// ```
///
/// String arguments may hold placeholders, filled when the call is made; in arguments, `{item}` is the item's id
/// and `{quantity}` and `{price}` may stand for a whole argument to give a number.
public struct DialogueCall: Hashable, Sendable, Codable {
    /// The action.
    public var tool: NPCTool
    /// The arguments: a JSON object whose string members may hold placeholders.
    public var arguments: JSONValue

    /// Creates a call.
    ///
    /// - Parameters:
    ///   - tool: The action.
    ///   - arguments: The arguments, a JSON object.
    public init(tool: NPCTool, arguments: JSONValue = .object(JSONObject())) {
        self.tool = tool
        self.arguments = arguments
    }
}
