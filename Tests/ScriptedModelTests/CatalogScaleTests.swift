import GameWorld
import Testing

@testable import ScriptedModel

/// The scripted model's item resolver scales with the catalog: building it takes work in proportion to the number
/// of items (it once compared every distinctive word with every name: 100,000 items took minutes), and reading a
/// line compares it only with the names that start with one of its words. The work is counted, not timed, so the
/// checks are exact and the same on every machine.
@Suite struct CatalogScaleTests {
    static let adjectives = [
        "Mossy", "Gilded", "Crooked", "Silent", "Windy", "Amber", "Hollow", "Iron", "Misty", "Old", "Red", "Sunken",
        "Bright", "Copper", "Dusky", "Frosty",
    ]
    static let things = ["Sword", "Dagger", "Rope", "Lantern", "Loaf", "Cider", "Cloak", "Locket", "Opal", "Atlas"]

    /// A world of `count` items named like the synthetic worlds' (`Mossy Sword 12`), every tenth with an alias.
    static func world(items count: Int) -> World {
        let items = (0..<count).map { index in
            Item(
                id: ItemID("item_\(index)"),
                name: "\(adjectives[index % adjectives.count]) \(things[(index / 16) % things.count]) \(index)",
                aliases: index % 10 == 0 ? ["relic \(index)"] : [], value: 1 + index % 50, category: "curio")
        }
        let mira = NPC(id: "mira", name: "Mira Quickcoin", persona: "A merchant.", location: "square")
        return World(
            id: "scale", title: "Scale",
            locations: [Location(id: "square", name: "Square", description: "A square.")], items: items,
            npcs: [mira],
            goal: GameGoal(description: "None.", requirements: [.playerAt(location: "square")]))
    }

    @Test func buildingTheResolverTakesWorkInProportionToTheCatalog() {
        let small = ItemResolver(world: Self.world(items: 2_000))
        let large = ItemResolver(world: Self.world(items: 16_000))
        // Not vacuous: every item gets several names.
        #expect(small.buildSteps >= 4 * 2_000)
        let ratio = Double(large.buildSteps) / Double(small.buildSteps)
        // Eight times the items: linear work is 8 times as much (a little more for names words that grow by a
        // digit); quadratic work would be 64 times.
        #expect(ratio <= 8.5, "building took \(ratio)× the work for 8× the items")
    }

    @Test func readingALineLooksOnlyAtNamesStartingWithItsWords() {
        var examined: [Int] = []
        for count in [2_000, 16_000] {
            let resolver = ItemResolver(world: Self.world(items: count))
            var work = 0
            let mentions = resolver.mentions(in: Words("how much is the 1234?"), examined: &work)
            #expect(mentions.first?.items == ["item_1234"])
            examined.append(work)
        }
        // The same line costs the same whatever the size of the catalog.
        #expect(examined[0] == examined[1], "\(examined)")
        #expect(examined[0] >= 1)
    }

    @Test func theIndexesAnswerAsAScanOfTheCatalogWould() {
        let world = Self.world(items: 3_000)
        let resolver = ItemResolver(world: world)
        for text in ["item_42", "Mossy Sword 0", "mossy sword 0", "relic 20", "RELIC 20", "sword", "1234", "nothing"] {
            let scanned = world.items.values.filter { $0.isNamed(text) }.map(\.id)
            let expected = world.items[ItemID(text)] != nil ? ItemID(text) : scanned.count == 1 ? scanned[0] : nil
            if let expected {
                #expect(resolver.item(named: text) == expected, "\(text)")
            }
            #expect(world.itemNames.items(named: text) == scanned.sorted(), "\(text)")
        }
        // A whole name, a plural of it, and a word only one item's name has.
        #expect(resolver.bestItems(in: Words("the mossy rope 32")) == ["item_32"])
        #expect(resolver.bestItems(in: Words("a 2999")) == ["item_2999"])
        // A word many names share names none by itself.
        #expect(resolver.bestItems(in: Words("the rope")) == [])
    }
}
