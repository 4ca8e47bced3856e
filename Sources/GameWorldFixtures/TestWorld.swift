import ContentPacks
import Foundation
import GameWorld

/// A small world built in code, where every trade rule can be triggered by an offer alone.
///
/// The player stands in the smithy with 100 gold, 2 daggers, 3 loaves, a silver sword, an old key (quest) and a
/// guild seal (untradeable). Brannoc (smith: weapons and tools, markup 1.5, lowest 1.2, buy-back 0.5, keeps
/// his hammer) and Oona (does not trade) are there too; Mira (food) is in the square.
package enum TestWorld {
    package static let items: [Item] = [
        Item(id: "sword", name: "Sword", value: 40, category: "weapon"),
        Item(id: "silver_sword", name: "Silver Sword", value: 100, category: "weapon"),
        Item(id: "dagger", name: "Dagger", value: 20, category: "weapon"),
        Item(id: "lantern", name: "Lantern", value: 20, category: "tool"),
        Item(id: "hammer", name: "Forge Hammer", value: 60, category: "tool"),
        Item(id: "bread", name: "Bread", value: 2, category: "food"),
        Item(id: "apple", name: "Apple", value: 1, category: "food"),
        Item(id: "old_key", name: "Old Key", value: 5, category: "tool", tags: [.quest]),
        Item(id: "guild_seal", name: "Guild Seal", value: 10, category: "tool", tags: [.untradeable]),
    ]

    package static let brannoc = NPC(
        id: "brannoc", name: "Brannoc", persona: "A blunt smith.", location: "smithy",
        inventory: ["sword": 1, "lantern": 2, "hammer": 1, "apple": 1], gold: 30,
        trade: TradePolicy(
            sells: ["weapon", "tool"], buys: ["weapon", "tool"], sellMarkup: PriceRatio(hundredths: 150),
            buyBackRate: PriceRatio(hundredths: 50), minimumPriceRatio: PriceRatio(hundredths: 120),
            neverSells: ["hammer"]))

    package static let oona = NPC(
        id: "oona", name: "Oona", persona: "A guard.", location: "smithy", inventory: ["sword": 1], gold: 10)

    package static let mira = NPC(
        id: "mira", name: "Mira", persona: "A merchant.", location: "square", inventory: ["bread": 5], gold: 20,
        trade: TradePolicy(sells: ["food"], buys: ["food"]))

    package static let world = World(
        id: "test", title: "Test",
        locations: [
            Location(
                id: "square", name: "Square", description: "A square.",
                exits: [
                    Exit(direction: "east", destination: "smithy"),
                    Exit(direction: "down", destination: "cellar", requiredItem: "lantern"),
                ], items: ["apple": 3]),
            Location(
                id: "smithy", name: "Smithy", description: "A smithy.",
                exits: [Exit(direction: "west", destination: "square")]),
            Location(
                id: "cellar", name: "Cellar", description: "A cellar.",
                exits: [Exit(direction: "up", destination: "square")]),
        ],
        items: items, npcs: [brannoc, oona, mira],
        goal: GameGoal(
            description: "Give the key to Mira.", requirements: [.npcHasItem(npc: "mira", item: "old_key", quantity: 1)]
        ))

    package static let player = Player(
        name: "Tester", location: "smithy", gold: 100,
        inventory: ["dagger": 2, "bread": 3, "silver_sword": 1, "old_key": 1, "guild_seal": 1])

    package static let state = GameState(world: world, player: player)

    /// The package's root directory, found from this file's path.
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shipped pack, `Content/`.
    package static func shippedPack() throws -> ContentPack {
        try ContentPack.load(from: packageRoot.appendingPathComponent("Content"), displayPath: "Content").get()
    }
}
