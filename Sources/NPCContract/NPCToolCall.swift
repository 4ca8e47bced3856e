import GameWorld
import LanguageModels

/// A call of one of the NPC tools with its typed arguments: what a model asks for, read from or written into a
/// transcript's `toolCalls` entry.
///
/// ```swift
/// let call = NPCToolCall.offerTrade(.init(action: .sell, item: "lantern", quantity: 1, price: 25))
/// call.tool.rawValue          // offerTrade
/// call.arguments.jsonString   // {"action":"sell","item":"lantern","quantity":1,"price":25}
/// ```
public enum NPCToolCall: Sendable, Hashable {
    /// `lookUpStock`.
    case lookUpStock(LookUpStock.Arguments)
    /// `inspectPlayer`.
    case inspectPlayer
    /// `offerTrade`.
    case offerTrade(OfferTrade.Arguments)
    /// `giveItem`.
    case giveItem(GiveItem.Arguments)
    /// `acceptGift`.
    case acceptGift(AcceptGift.Arguments)

    /// The tool called.
    public var tool: NPCTool {
        switch self {
        case .lookUpStock: .lookUpStock
        case .inspectPlayer: .inspectPlayer
        case .offerTrade: .offerTrade
        case .giveItem: .giveItem
        case .acceptGift: .acceptGift
        }
    }

    /// The arguments as the call's JSON, members in the schema's order.
    public var arguments: GeneratedContent {
        switch self {
        case .lookUpStock(let arguments): arguments.generatedContent
        case .inspectPlayer: InspectPlayer.Arguments().generatedContent
        case .offerTrade(let arguments): arguments.generatedContent
        case .giveItem(let arguments): arguments.generatedContent
        case .acceptGift(let arguments): arguments.generatedContent
        }
    }

    /// The item the call is about, in the words of its `item` argument, if it has one.
    public var item: String? {
        switch self {
        case .lookUpStock(let arguments): arguments.item
        case .inspectPlayer: nil
        case .offerTrade(let arguments): arguments.item
        case .giveItem(let arguments): arguments.item
        case .acceptGift(let arguments): arguments.item
        }
    }

    /// The call's `quantity` argument, if it has one.
    public var quantity: Int? {
        switch self {
        case .lookUpStock, .inspectPlayer: nil
        case .offerTrade(let arguments): arguments.quantity
        case .giveItem(let arguments): arguments.quantity
        case .acceptGift(let arguments): arguments.quantity
        }
    }

    /// Reads a call of a tool.
    ///
    /// - Parameters:
    ///   - tool: The tool.
    ///   - arguments: The call's arguments.
    /// - Throws: `GeneratedContent.ParsingError` when the arguments do not fit the tool's.
    public init(tool: NPCTool, arguments: GeneratedContent) throws {
        switch tool {
        case .lookUpStock: self = .lookUpStock(try LookUpStock.Arguments(arguments))
        case .inspectPlayer: self = .inspectPlayer
        case .offerTrade: self = .offerTrade(try OfferTrade.Arguments(arguments))
        case .giveItem: self = .giveItem(try GiveItem.Arguments(arguments))
        case .acceptGift: self = .acceptGift(try AcceptGift.Arguments(arguments))
        }
    }

    /// Reads a transcript's tool call.
    ///
    /// - Parameter call: The call.
    /// - Returns: `nil` when it calls another tool than the NPC tools, or its arguments do not fit the tool's.
    public init?(_ call: Transcript.ToolCall) {
        guard let tool = NPCTool(rawValue: call.toolName),
            let read = try? NPCToolCall(tool: tool, arguments: call.arguments)
        else { return nil }
        self = read
    }
}
