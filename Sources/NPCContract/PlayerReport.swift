import GameWorld
import LanguageModels

/// What the NPC knows of the player: `inspectPlayer`'s answer, and the player in a turn's `GameContext`.
///
/// ```json
/// {"name": "Ada", "gold": 14, "inventory": [{"item": "bread", "name": "Loaf of Bread", "quantity": 2, "buyPrice": 1}]}
/// ```
///
/// `inspectPlayer` names each item and gives the price the NPC would pay for one (`buyPrice`, only for items it
/// buys); the game context gives ids and quantities only. Members without a value are left out.
public struct PlayerReport: Sendable, Hashable, ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
    /// One kind of item the player carries.
    public struct Line: Sendable, Hashable {
        /// The item's id.
        public var item: ItemID
        /// Its name, when given.
        public var name: String?
        /// How many.
        public var quantity: Int
        /// What the NPC would pay for one, when it buys the item.
        public var buyPrice: Int?

        /// Creates a line.
        ///
        /// - Parameters:
        ///   - item: The item's id.
        ///   - name: Its name.
        ///   - quantity: How many.
        ///   - buyPrice: What the NPC would pay for one.
        public init(item: ItemID, name: String? = nil, quantity: Int, buyPrice: Int? = nil) {
            self.item = item
            self.name = name
            self.quantity = quantity
            self.buyPrice = buyPrice
        }
    }

    /// The player's name.
    public var name: String
    /// The player's gold.
    public var gold: Int
    /// What the player carries, in order.
    public var inventory: [Line]

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - name: The player's name.
    ///   - gold: The player's gold.
    ///   - inventory: What the player carries.
    public init(name: String, gold: Int, inventory: [Line]) {
        self.name = name
        self.gold = gold
        self.inventory = inventory
    }

    /// How many of an item the player carries.
    ///
    /// - Parameter item: The item.
    /// - Returns: The quantity, 0 when not carried.
    public func quantity(of item: ItemID) -> Int { line(for: item)?.quantity ?? 0 }

    /// The line for an item, if carried.
    ///
    /// - Parameter item: The item.
    /// - Returns: Its line.
    public func line(for item: ItemID) -> Line? { inventory.first { $0.item == item } }

    // MARK: - JSON

    /// `{"name", "gold", "inventory": [{"item", "name"?, "quantity", "buyPrice"?}]}`.
    public var generatedContent: GeneratedContent {
        var builder = ContentBuilder()
        builder.add("name", name)
        builder.add("gold", gold)
        builder.add(
            "inventory",
            elements: inventory.map { line in
                var element = ContentBuilder()
                element.add("item", line.item.rawValue)
                element.add("name", line.name)
                element.add("quantity", line.quantity)
                element.add("buyPrice", line.buyPrice)
                return element.content
            })
        return builder.content
    }

    /// Reads a report.
    ///
    /// - Parameter content: `inspectPlayer`'s output, or the game context's `player`.
    /// - Throws: `GeneratedContent.ParsingError` when a member is missing or has the wrong type.
    public init(_ content: GeneratedContent) throws {
        try self.init(reading: ContentReader(content, reading: PlayerReport.self))
    }

    /// Reads a report at a point of a value being read.
    init(reading reader: ContentReader) throws {
        name = try reader.string("name")
        gold = try reader.integer("gold")
        inventory = try reader.required("inventory", "Array").elements().map { element in
            Line(
                item: ItemID(try element.string("item")), name: try element.optionalString("name"),
                quantity: try element.integer("quantity"), buyPrice: try element.optionalInteger("buyPrice"))
        }
    }
}
