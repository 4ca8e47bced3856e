import GameWorld
import GameWorldFixtures
import Synchronization
import SyntheticWorlds
import Testing

/// The catalog's name index answers as a scan of the catalog would, and is built once per world: every copy of
/// the world (each game state) shares it, until the catalog itself changes.
@Suite struct ItemNamesTests {
    @Test func lookupsAnswerAsAScanOfTheCatalog() throws {
        let world = try TestWorld.shippedPack().world
        let names = world.itemNames
        var texts = ["lantern", "Brass Lantern", "BRASS LANTERN", "lamp", "rope", "sword", "nothing", ""]
        texts += world.items.values.flatMap { [$0.id.rawValue, $0.name.uppercased()] + $0.aliases }
        for text in texts {
            let scanned = world.items.values.filter { $0.isNamed(text) }.map(\.id).sorted()
            #expect(names.items(named: text) == scanned, "\(text)")
        }
        for sentence in [
            "The Brass Lantern? 25 gold.", "A lamp and a coil of rope", "nothing here", "rope rope rope",
            "Flask of Lamp Oil, 4 gold",
        ] {
            let words = ItemNames.words(in: sentence)
            let scanned = world.items.values.filter { item in
                ([item.name] + item.aliases).contains { name in
                    let nameWords = ItemNames.words(in: name)
                    guard !nameWords.isEmpty, nameWords.count <= words.count else { return false }
                    return (0...(words.count - nameWords.count)).contains {
                        Array(words[$0..<($0 + nameWords.count)]) == nameWords
                    }
                }
            }.map(\.id).sorted()
            #expect(names.items(mentionedIn: sentence) == scanned, "\(sentence)")
        }
        #expect(names.items(mentionedIn: "The Brass Lantern? 25 gold.") == ["lantern"])
    }

    @Test func wordsAreTheSameForASCIIAndOtherText() {
        #expect(ItemNames.words(in: "Flask of Lamp-Oil, Mira's!") == ["flask", "of", "lamp", "oil", "mira's"])
        #expect(ItemNames.words(in: "Crème Brûlée x2") == ["crème", "brûlée", "x2"])
    }

    @Test func aCatalogIsIndexedOncePerWorld() {
        let builds = Mutex(0)
        struct Marker: Sendable { let items: Int }
        func derived(_ world: World) -> Marker {
            world.catalogDerived { world in
                builds.withLock { $0 += 1 }
                return Marker(items: world.items.count)
            }
        }
        let world = TestWorld.world
        #expect(derived(world).items == world.items.count)
        // Copies share it, even when their NPCs or locations change (a game's state).
        var state = GameState(world: world, player: TestWorld.player)
        try? state.apply(.gave(item: "dagger", quantity: 1, to: "brannoc"))
        #expect(state.world != world)
        _ = derived(state.world)
        _ = derived(world)
        #expect(builds.withLock { $0 } == 1)
        // A changed catalog is indexed again.
        var changed = world
        changed.items["pebble"] = Item(id: "pebble", name: "Pebble", value: 0, category: "curio")
        #expect(derived(changed).items == world.items.count + 1)
        #expect(builds.withLock { $0 } == 2)
        #expect(changed.itemNames.items(named: "pebble") == ["pebble"])
        #expect(world.itemNames.items(named: "pebble") == [])
    }

    @Test func theIndexTakesNoPartInEquality() {
        let indexed = TestWorld.world
        _ = indexed.itemNames
        let fresh = GameState(world: TestWorld.world, player: TestWorld.player).world
        #expect(indexed == fresh)
        #expect(indexed.hashValue == fresh.hashValue)
    }

    @Test func indexingTakesWorkInProportionToTheCatalog() {
        let small = SyntheticWorld.generate(seed: 5, locations: 2, npcs: 2, items: 1_000).world.itemNames
        let large = SyntheticWorld.generate(seed: 5, locations: 2, npcs: 2, items: 8_000).world.itemNames
        #expect(small.count >= 2 * 1_000)
        #expect(Double(large.count) / Double(small.count) <= 8.1)
    }
}
