import GameWorld
import LanguageModels

/// What `lookUpStock` answers: the items the NPC sells (or the one asked for) with their prices, the words of an
/// item it does not have or sell, and the categories it buys.
///
/// ```json
/// {"items": [{"item": "lantern", "name": "Brass Lantern", "quantity": 1, "price": 25, "lowestPrice": 20}],
///  "buys": ["clothing", "curio", "food"]}
/// {"items": [], "missing": "unicorn horn", "buys": ["clothing", "curio", "food"]}
/// ```
///
/// Prices are per item, in gold. `missing` and `buys` are left out when there is no value (`buys` only when the
/// NPC is unknown).
public struct StockReport: Sendable, Hashable, ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
    /// One item the NPC sells.
    public struct Line: Sendable, Hashable {
        /// The item's id.
        public var item: ItemID
        /// Its name.
        public var name: String
        /// How many the NPC has.
        public var quantity: Int
        /// The asking price of one.
        public var price: Int
        /// The lowest price the NPC accepts for one.
        public var lowestPrice: Int

        /// Creates a line.
        ///
        /// - Parameters:
        ///   - item: The item's id.
        ///   - name: Its name.
        ///   - quantity: How many the NPC has.
        ///   - price: The asking price of one.
        ///   - lowestPrice: The lowest price for one.
        public init(item: ItemID, name: String, quantity: Int, price: Int, lowestPrice: Int) {
            self.item = item
            self.name = name
            self.quantity = quantity
            self.price = price
            self.lowestPrice = lowestPrice
        }
    }

    /// The items listed, in order.
    public var lines: [Line]
    /// The item asked for, in the words used, when the NPC does not have or sell it (then `lines` is empty).
    public var missing: String?
    /// The categories of items the NPC buys, sorted; `nil` when the NPC is unknown.
    public var buys: [String]?

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - lines: The items listed.
    ///   - missing: The item asked for that the NPC does not have or sell.
    ///   - buys: The categories the NPC buys.
    public init(lines: [Line], missing: String? = nil, buys: [String]? = nil) {
        self.lines = lines
        self.missing = missing
        self.buys = buys
    }

    /// The line for an item, if listed.
    ///
    /// - Parameter item: The item.
    /// - Returns: Its line.
    public func line(for item: ItemID) -> Line? { lines.first { $0.item == item } }

    // MARK: - JSON

    /// `{"items": [{"item", "name", "quantity", "price", "lowestPrice"}], "missing"?, "buys"?}`.
    public var generatedContent: GeneratedContent {
        var builder = ContentBuilder()
        builder.add(
            "items",
            elements: lines.map { line in
                var element = ContentBuilder()
                element.add("item", line.item.rawValue)
                element.add("name", line.name)
                element.add("quantity", line.quantity)
                element.add("price", line.price)
                element.add("lowestPrice", line.lowestPrice)
                return element.content
            })
        builder.add("missing", missing)
        builder.add("buys", elements: buys)
        return builder.content
    }

    /// Reads a report.
    ///
    /// - Parameter content: `lookUpStock`'s output.
    /// - Throws: `GeneratedContent.ParsingError` when a member is missing or has the wrong type.
    public init(_ content: GeneratedContent) throws {
        let reader = ContentReader(content, reading: StockReport.self)
        lines = try reader.required("items", "Array").elements().map { element in
            Line(
                item: ItemID(try element.string("item")), name: try element.string("name"),
                quantity: try element.integer("quantity"), price: try element.integer("price"),
                lowestPrice: try element.integer("lowestPrice"))
        }
        missing = try reader.optionalString("missing")
        buys = try reader.optional("buys")?.elements().map { try $0.string() }
    }
}
