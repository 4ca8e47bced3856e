import GameWorld
import LanguageModels

/// What `lookUpStock` answered: the NPC's stock lines (or the one asked for), the item it does not have, and the
/// categories it buys.
struct StockReport: Sendable, Equatable {
    /// One item the NPC sells.
    struct Line: Sendable, Equatable {
        /// The item's id.
        let item: ItemID
        /// Its name.
        let name: String
        /// How many the NPC has.
        let quantity: Int
        /// The asking price of one.
        let price: Int
        /// The lowest price the NPC accepts for one, if given.
        let lowestPrice: Int?
    }

    /// The items listed.
    let lines: [Line]
    /// The asked item's text when the NPC does not have or sell it.
    let missing: String?
    /// The categories the NPC buys, if given.
    let buys: [String]?

    /// Reads `{"items": [{"item", "name", "quantity", "price", "lowestPrice"}], "missing", "buys"}`.
    ///
    /// - Parameters:
    ///   - content: The tool's output.
    ///   - world: The world, for names the output leaves out.
    init(_ content: GeneratedContent, world: World) {
        var lines: [Line] = []
        if case .array(let elements)? = content[property: "items"]?.kind {
            for element in elements {
                guard let id = element.string("item") else { continue }
                let item = ItemID(id)
                lines.append(
                    Line(
                        item: item, name: element.string("name") ?? world.name(of: item),
                        quantity: element.integer("quantity") ?? 1, price: element.integer("price") ?? 0,
                        lowestPrice: element.integer("lowestPrice")))
            }
        }
        self.lines = lines
        missing = content.string("missing")
        if case .array(let elements)? = content[property: "buys"]?.kind {
            buys = elements.compactMap { if case .string(let text) = $0.kind { text } else { nil } }
        } else {
            buys = nil
        }
    }

    /// The line for an item, if listed.
    func line(for item: ItemID) -> Line? { lines.first { $0.item == item } }
}
