/// Items with quantities, as carried by the player or an NPC or lying at a location.
///
/// An inventory holds only positive quantities: removing the last of an item removes its entry, so two
/// inventories with the same contents are equal however they got there. It encodes as a JSON object from item
/// id to quantity (`{"bread": 2, "lantern": 1}`).
public struct Inventory: Hashable, Sendable, Codable, Sequence, ExpressibleByDictionaryLiteral {
    /// The quantity of each item held; every value is at least 1.
    public private(set) var quantities: [ItemID: Int]

    /// An empty inventory.
    public init() {
        quantities = [:]
    }

    /// An inventory holding these stacks; stacks of the same item are added up (a sum beyond `Int.max` is held
    /// as `Int.max`, far above `GameLimits.maximumQuantity`), and non-positive ones ignored.
    ///
    /// - Parameter stacks: The items and quantities.
    public init(_ stacks: some Sequence<ItemStack>) {
        quantities = [:]
        for stack in stacks where stack.quantity > 0 {
            let (sum, overflow) = quantities[stack.item, default: 0].addingReportingOverflow(stack.quantity)
            quantities[stack.item] = overflow ? Int.max : sum
        }
    }

    /// An inventory from a literal such as `["bread": 2, "lantern": 1]`.
    public init(dictionaryLiteral elements: (ItemID, Int)...) {
        self.init(elements.map { ItemStack($0.0, quantity: $0.1) })
    }

    /// How many of `item` are held; 0 when none.
    ///
    /// - Parameter item: The item's id.
    /// - Returns: The quantity held.
    public func quantity(of item: ItemID) -> Int { quantities[item] ?? 0 }

    /// Whether at least `quantity` of `item` are held.
    ///
    /// - Parameters:
    ///   - item: The item's id.
    ///   - quantity: How many are needed, 1 by default.
    /// - Returns: `true` when the inventory holds that many.
    public func contains(_ item: ItemID, quantity: Int = 1) -> Bool { self.quantity(of: item) >= quantity }

    /// Whether nothing is held.
    public var isEmpty: Bool { quantities.isEmpty }

    /// The stacks held, sorted by item id so that listings are the same on every run.
    public var stacks: [ItemStack] {
        quantities.keys.sorted().map { ItemStack($0, quantity: quantities[$0]!) }
    }

    /// The number of items held, all quantities added up (`Int.max` if that does not fit in an `Int`).
    public var totalQuantity: Int {
        quantities.values.reduce(0) { total, quantity in
            let (sum, overflow) = total.addingReportingOverflow(quantity)
            return overflow ? Int.max : sum
        }
    }

    /// Adds `quantity` of `item`, unless the total would not fit in an `Int`.
    ///
    /// `GameState.apply(_:rules:)` checks `GameLimits.maximumQuantity` before it adds; this only guards against
    /// overflow.
    ///
    /// - Parameters:
    ///   - item: The item's id.
    ///   - quantity: How many to add; must be at least 1.
    /// - Returns: `false`, having changed nothing, when the total would overflow; `true` otherwise.
    @discardableResult
    public mutating func add(_ item: ItemID, quantity: Int = 1) -> Bool {
        precondition(quantity > 0, "Inventory.add needs a positive quantity, got \(quantity)")
        let (sum, overflow) = self.quantity(of: item).addingReportingOverflow(quantity)
        guard !overflow else { return false }
        quantities[item] = sum
        return true
    }

    /// Removes `quantity` of `item`.
    ///
    /// - Parameters:
    ///   - item: The item's id.
    ///   - quantity: How many to remove; must be at least 1 and at most the quantity held.
    public mutating func remove(_ item: ItemID, quantity: Int = 1) {
        let held = self.quantity(of: item)
        precondition(quantity > 0 && quantity <= held, "Inventory.remove(\(item), \(quantity)) but \(held) held")
        quantities[item] = held == quantity ? nil : held - quantity
    }

    /// Iterates over the stacks in item id order.
    public func makeIterator() -> IndexingIterator<[ItemStack]> { stacks.makeIterator() }

    // MARK: - Codable

    /// Decodes an inventory from a JSON object of item id to quantity.
    ///
    /// - Throws: `DecodingError` when the object is malformed or a quantity is not positive.
    public init(from decoder: any Decoder) throws {
        let decoded = try decoder.singleValueContainer().decode([ItemID: Int].self)
        if let bad = decoded.first(where: { $0.value <= 0 }) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "quantity of \(bad.key) is \(bad.value)"))
        }
        quantities = decoded
    }

    /// Encodes the inventory as a JSON object of item id to quantity.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(quantities)
    }
}
