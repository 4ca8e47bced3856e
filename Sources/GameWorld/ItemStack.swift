/// A quantity of one item, as written in inventories and trade offers: `{"item": "bread", "quantity": 2}`.
public struct ItemStack: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The item.
    public var item: ItemID
    /// How many. Valid stacks have at least 1; trade offers may carry any number, and `TradeRules` says what is
    /// wrong with it.
    public var quantity: Int

    /// A stack of `quantity` items.
    ///
    /// - Parameters:
    ///   - item: The item's id.
    ///   - quantity: How many, 1 by default.
    public init(_ item: ItemID, quantity: Int = 1) {
        self.item = item
        self.quantity = quantity
    }

    private enum CodingKeys: String, CodingKey {
        case item, quantity
    }

    /// Decodes a stack from `{"item": "bread", "quantity": 2}`; a missing quantity is 1.
    ///
    /// - Throws: `DecodingError` when `item` is missing or a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        item = try container.decode(ItemID.self, forKey: .item)
        quantity = try container.decodeIfPresent(Int.self, forKey: .quantity) ?? 1
    }

    /// `2 × bread`.
    public var description: String { "\(quantity) × \(item)" }
}
