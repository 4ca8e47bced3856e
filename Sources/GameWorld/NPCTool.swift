/// An action an NPC can take in the game, by the name the engine gives the tool that performs it.
///
/// The game performs every action and may refuse it; the NPC only asks. Dialogue rules ask for actions in their
/// `calls` (`DialogueCall`), and the scripted model's built-in flows use them for trading.
public enum NPCTool: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Looks up the NPC's stock, or one item in it: `{"item": String}`, the item optional.
    case lookUpStock
    /// Looks at the player: name, gold, and what they carry with the NPC's buy-back prices. No arguments.
    case inspectPlayer
    /// Proposes a trade: `{"action": "sell" | "buy", "item": String, "quantity": Int, "price": Int}`; `sell`
    /// means the NPC sells to the player, `price` is the total.
    case offerTrade
    /// Gives the player an item for free: `{"item": String, "quantity": Int}`.
    case giveItem
    /// Takes an item the player offered in words: `{"item": String, "quantity": Int}`.
    case acceptGift

    /// The tool's name.
    public var description: String { rawValue }

    /// One argument of a tool.
    public struct Argument: Hashable, Sendable {
        /// The argument's name.
        public let name: String
        /// Whether the argument is a whole number (otherwise it is a string).
        public let isInteger: Bool
        /// Whether the call needs it.
        public let isRequired: Bool
    }

    /// The arguments the tool takes, in order.
    public var arguments: [Argument] {
        switch self {
        case .lookUpStock: [Argument(name: "item", isInteger: false, isRequired: false)]
        case .inspectPlayer: []
        case .offerTrade:
            [
                Argument(name: "action", isInteger: false, isRequired: true),
                Argument(name: "item", isInteger: false, isRequired: true),
                Argument(name: "quantity", isInteger: true, isRequired: false),
                Argument(name: "price", isInteger: true, isRequired: true),
            ]
        case .giveItem, .acceptGift:
            [
                Argument(name: "item", isInteger: false, isRequired: true),
                Argument(name: "quantity", isInteger: true, isRequired: false),
            ]
        }
    }

    /// The outcomes a call of this tool can end in.
    public var outcomes: [DialogueOutcome] {
        switch self {
        case .lookUpStock: [.listed, .priced, .pricedSeveral, .missing, .empty]
        case .inspectPlayer: [.appraised, .notWanted]
        case .offerTrade: [.pending, .refused]
        case .giveItem: [.given, .refused]
        case .acceptGift: [.accepted, .refused]
        }
    }
}
