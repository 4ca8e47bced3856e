/// The terms of a trade offer an effect starts (`{"offer": {...}}`): the NPC sells to or buys from the player.
///
/// ```json
/// { "offer": { "action": "sell", "item": "lantern", "quantity": 1, "price": 20 } }
/// ```
///
/// An effect does not make the trade: the engine puts the offer through its trade guard, like an offer the
/// model made, and the player accepts or declines it.
public struct OfferTerms: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Which way the goods go.
    public enum Action: String, Hashable, Sendable, Codable, CaseIterable {
        /// The NPC sells the item to the player.
        case sell
        /// The NPC buys the item from the player.
        case buy
    }

    /// Which way the goods go.
    public var action: Action
    /// The item.
    public var item: ItemID
    /// How many.
    public var quantity: Int
    /// The total price in gold.
    public var price: Int

    /// Creates offer terms.
    ///
    /// - Parameters:
    ///   - action: `.sell` when the NPC sells, `.buy` when it buys.
    ///   - item: The item.
    ///   - quantity: How many, 1 by default.
    ///   - price: The total price in gold.
    public init(action: Action, item: ItemID, quantity: Int = 1, price: Int) {
        self.action = action
        self.item = item
        self.quantity = quantity
        self.price = price
    }

    /// The offer these terms make between the player and `npc`.
    ///
    /// - Parameter npc: The NPC making the offer.
    /// - Returns: `TradeOffer.buying` when the NPC sells, `TradeOffer.selling` when it buys.
    public func tradeOffer(npc: NPCID) -> TradeOffer {
        switch action {
        case .sell: .buying(item, quantity: quantity, from: npc, for: price)
        case .buy: .selling(item, quantity: quantity, to: npc, for: price)
        }
    }

    /// `sell 1 × lantern for 20 gold`.
    public var description: String { "\(action.rawValue) \(quantity) × \(item) for \(price) gold" }

    private enum CodingKeys: String, CodingKey {
        case action, item, quantity, price
    }

    /// Decodes terms; `quantity` may be missing (1).
    ///
    /// - Throws: `DecodingError` when a member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        action = try container.decode(Action.self, forKey: .action)
        item = try container.decode(ItemID.self, forKey: .item)
        quantity = try container.decodeIfPresent(Int.self, forKey: .quantity) ?? 1
        price = try container.decode(Int.self, forKey: .price)
    }
}
