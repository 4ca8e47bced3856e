import GameWorld
import LanguageModels

/// `offerTrade {"action", "item", "quantity"?, "price", "partExchange"?, "partExchangeQuantity"?}`: proposes a trade
/// to the player; the game's trade guard decides whether it may stand.
public enum OfferTrade: NPCToolContract {
    /// `offerTrade`.
    public static let tool = NPCTool.offerTrade
    /// What the tool does, for models.
    public static let toolDescription =
        "Offers the player a trade. action \"sell\": you sell them the item for price gold in total; \"buy\": you buy "
        + "it from them for price gold. Selling, partExchange is an item of theirs you take besides the gold (a swap). "
        + "The game checks the offer against your stock, their purse and your prices."

    /// `pending` with the offer in words, or `refused` with every reason.
    public typealias Output = ActionResult

    /// `{"action": "sell" | "buy", "item", "quantity"?, "price", "partExchange"?, "partExchangeQuantity"?}`.
    ///
    /// Also the offer a model proposes in structured output (`Game.propose(_:from:)` in `ParleyEngine`; it was
    /// `OfferProposal`). `Codable` with the same members: a `nil` quantity is left out.
    public struct Arguments: Generable, Hashable, Codable {
        /// `sell`: the NPC sells to the player; `buy`: the NPC buys from the player.
        public var action: OfferTerms.Action
        /// The item: its id, name or alias.
        public var item: String
        /// How many; 1 when left out.
        public var quantity: Int?
        /// Gold for all of them together.
        public var price: Int
        /// An item the player gives besides the gold, when the NPC sells (a swap: "my rusty sword and 100 gold for
        /// the silver sword"): its id, name or alias; `nil` for none.
        public var partExchange: String?
        /// How many of `partExchange`; 1 when left out.
        public var partExchangeQuantity: Int?

        /// Creates arguments.
        ///
        /// - Parameters:
        ///   - action: Which way the goods go.
        ///   - item: The item.
        ///   - quantity: How many; `nil` for 1.
        ///   - price: Gold in total.
        ///   - partExchange: An item the player gives besides the gold, when the NPC sells; `nil` for none.
        ///   - partExchangeQuantity: How many of it; `nil` for 1.
        public init(
            action: OfferTerms.Action, item: String, quantity: Int? = nil, price: Int, partExchange: String? = nil,
            partExchangeQuantity: Int? = nil
        ) {
            self.action = action
            self.item = item
            self.quantity = quantity
            self.price = price
            self.partExchange = partExchange
            self.partExchangeQuantity = partExchangeQuantity
        }

        /// The schema: `action` one of `sell` and `buy`, `quantity` at least 1, `price` at least 0, `partExchange` an
        /// item, `partExchangeQuantity` at least 1.
        public static var generationSchema: GenerationSchema {
            GenerationSchema(type: Arguments.self, properties: schemaProperties)
        }

        /// The properties of the arguments' schema, shared with other types that describe an offer the same way.
        public static var schemaProperties: [GenerationSchema.Property] {
            [
                .init(name: "action", type: String.self, guides: [.anyOf(OfferTerms.Action.allCases.map(\.rawValue))]),
                .init(name: "item", type: String.self),
                .init(name: "quantity", type: Int?.self, guides: [.minimum(1)]),
                .init(
                    name: "price", description: "Gold for all of them together", type: Int.self, guides: [.minimum(0)]),
                .init(
                    name: "partExchange", description: "Selling: an item of the player's you take besides the gold",
                    type: String?.self),
                .init(name: "partExchangeQuantity", type: Int?.self, guides: [.minimum(1)]),
            ]
        }

        /// `{"action", "item", "quantity"?, "price", "partExchange"?, "partExchangeQuantity"?}`.
        public var generatedContent: GeneratedContent {
            var builder = ContentBuilder()
            builder.add("action", action.rawValue)
            builder.add("item", item)
            builder.add("quantity", quantity)
            builder.add("price", price)
            builder.add("partExchange", partExchange)
            builder.add("partExchangeQuantity", partExchangeQuantity)
            return builder.content
        }

        /// Reads arguments; the action may be written in any case (`Sell`).
        ///
        /// - Parameter content: The call's arguments.
        /// - Throws: `GeneratedContent.ParsingError` when a member is missing or has the wrong type, or the action
        ///   is neither `sell` nor `buy`.
        public init(_ content: GeneratedContent) throws {
            let reader = ContentReader(content, reading: Arguments.self)
            let actionReader = try reader.required("action", "String")
            let text = try actionReader.string()
            guard let action = OfferTerms.Action(rawValue: text.lowercased()) else {
                let choices = OfferTerms.Action.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                throw actionReader.error("expected \(choices), found \"\(text)\"")
            }
            self.action = action
            item = try reader.string("item")
            quantity = try reader.optionalInteger("quantity")
            price = try reader.integer("price")
            partExchange = try reader.optionalString("partExchange")
            partExchangeQuantity = try reader.optionalInteger("partExchangeQuantity")
        }
    }
}
