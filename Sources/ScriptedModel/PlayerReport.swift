import GameWorld
import LanguageModels

/// What the NPC knows of the player at one point: from the game context at first contact or from `inspectPlayer`.
struct PlayerReport: Sendable, Equatable {
    /// One kind of item the player carries.
    struct Line: Sendable, Equatable {
        /// The item's id.
        let item: ItemID
        /// How many.
        let quantity: Int
        /// What the NPC would pay for one, if it buys it.
        let buyPrice: Int?
    }

    /// The player's name, if given.
    let name: String?
    /// The player's gold, if given.
    let gold: Int?
    /// What the player carries, in the order given.
    let lines: [Line]

    /// Reads `{"name", "gold", "inventory": [{"item", "quantity", "buyPrice"}]}`.
    ///
    /// - Parameter content: A player object from `inspectPlayer` or the game context.
    init(_ content: GeneratedContent) {
        name = content.string("name")
        gold = content.integer("gold")
        var lines: [Line] = []
        if case .array(let elements)? = content[property: "inventory"]?.kind {
            for element in elements {
                guard let id = element.string("item") else { continue }
                lines.append(
                    Line(
                        item: ItemID(id), quantity: element.integer("quantity") ?? 1,
                        buyPrice: element.integer("buyPrice")))
            }
        }
        self.lines = lines
    }

    /// How many of an item the player carries.
    func quantity(of item: ItemID) -> Int { lines.first { $0.item == item }?.quantity ?? 0 }

    /// The line for an item, if carried.
    func line(for item: ItemID) -> Line? { lines.first { $0.item == item } }
}
