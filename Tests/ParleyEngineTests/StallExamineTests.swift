import GameWorld
import LanguageModelsTesting
import Testing

@testable import ParleyEngine

/// `examine` describes the goods on the stall of an NPC who is here and sells them, as well as what the player
/// carries and what lies here; what an NPC keeps (never sells) or sells elsewhere is not on show.
@Suite struct StallExamineTests {
    static func game(at location: LocationID? = nil) throws -> (Game, ContentPack) {
        let pack = try shippedPack()
        var player = pack.initialState.player
        if let location { player.location = location }
        let game = Game(
            state: GameState(world: pack.world, player: player), models: { _, _ in MockLanguageModel(replies: []) })
        return (game, pack)
    }

    @Test(arguments: [
        ("examine lantern", "lantern", "Mira Quickcoin"), ("x the wool cloak", "wool_cloak", "Mira Quickcoin"),
        ("look at the boots", "leather_boots", "Mira Quickcoin"),
    ])
    func goodsOnAStallHereAreDescribed(line: String, item: ItemID, seller: String) async throws {
        let (game, pack) = try Self.game()
        let screen = Screen()
        await game.perform(line, output: screen.record)
        let described = try #require(pack.world.items[item])
        #expect(screen.text == "\(described.name): \(described.description) \(seller) sells it.", "\(screen.text)")
    }

    @Test func goodsAtTheSmithyAreOnShowThereOnly() async throws {
        let (square, pack) = try Self.game()
        let screen = Screen()
        await square.perform("examine tongs", output: screen.record)
        #expect(screen.text.contains("You see no tongs here."), "\(screen.text)")
        let (smithy, _) = try Self.game(at: "smithy")
        screen.clear()
        await smithy.perform("examine tongs", output: screen.record)
        let tongs = try #require(pack.world.items["tongs"])
        #expect(screen.text == "\(tongs.name): \(tongs.description) Brannoc Ashdown sells it.", "\(screen.text)")
    }

    /// What an NPC never sells is not on its stall: it is not described, and not offered as a name to examine.
    @Test func whatAnNPCKeepsIsNotOnShow() async throws {
        let (game, pack) = try Self.game()
        let screen = Screen()
        await game.perform("examine scales", output: screen.record)
        let scales = try #require(pack.world.items["brass_scales"]?.name)
        #expect(screen.text.contains("You see no scales here."), "\(screen.text)")
        #expect(!screen.text.contains(scales))
        // The names offered list the stall's goods once each, after what is carried and what lies here.
        #expect(screen.text.contains("Brass Lantern"))
        let listed = try #require(screen.text.components(separatedBy: "You can examine: ").last)
        let names = listed.dropLast().components(separatedBy: ", ")
        #expect(names.count == Set(names).count, "\(names)")
    }
}
