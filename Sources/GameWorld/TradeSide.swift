/// What one side of a trade gives: items with quantities, and gold.
public struct TradeSide: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The items given. The same item may appear on several lines; `TradeRules` adds them up.
    public var items: [ItemStack]
    /// The gold given.
    public var gold: Int

    /// Creates one side of a trade.
    ///
    /// - Parameters:
    ///   - items: The items given.
    ///   - gold: The gold given.
    public init(items: [ItemStack] = [], gold: Int = 0) {
        self.items = items
        self.gold = gold
    }

    /// Giving nothing.
    public static let nothing = TradeSide()

    /// Whether this side gives neither items nor gold.
    public var isEmpty: Bool { items.isEmpty && gold == 0 }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case items, gold
    }

    /// Decodes a side from `{"items": [...], "gold": 20}`; either member may be left out (no items, 0 gold),
    /// as a model proposing an offer often does.
    ///
    /// - Throws: `DecodingError` when a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decodeIfPresent([ItemStack].self, forKey: .items) ?? []
        gold = try container.decodeIfPresent(Int.self, forKey: .gold) ?? 0
    }

    /// `1 × lantern + 20 gold`, or `nothing`.
    public var description: String {
        var parts = items.map(\.description)
        if gold != 0 { parts.append("\(gold) gold") }
        return parts.isEmpty ? "nothing" : parts.joined(separator: " + ")
    }
}
