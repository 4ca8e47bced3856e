import Foundation
import GameWorld
import SaveGames
import ScriptedModel
import Testing

@testable import ParleyEngine
@testable import ParleyHost

/// A swap (the player's goods and gold for the NPC's) is remembered whole: the purchase and what the player traded
/// in for it, live and after a load, in the NPC's memory and in the facts a trim keeps.
@Suite struct SwapMemoryTests {
    /// The shipped pack, the player at the smithy with their rusty sword and 110 gold.
    static func pack() throws -> ContentPack {
        let shipped = try shippedPack()
        var player = shipped.startingPlayer
        player.location = "smithy"
        player.gold = 110
        return ContentPack(world: shipped.world, startingPlayer: player)
    }

    static func host(_ store: SaveGameStore) throws -> GameHost {
        GameHost(
            pack: try pack(), models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }, store: store)
    }

    @Test func aSwapIsRememberedWithWhatWasTradedInAfterALoad() async throws {
        let folder = TemporaryFolder()
        let store = SaveGameStore(folder: folder.url)
        let host = try Self.host(store)
        let screen = Screen()
        await host.begin(continuing: false, output: screen.record)
        await host.perform("talk to brannoc", output: screen.record)
        await host.perform("my rusty sword plus 105 gold for the silver sword, deal?", output: screen.record)
        #expect(await host.game.pendingOffers["brannoc"]?.offer.playerGives.items.isEmpty == false, "\(screen.text)")
        await host.perform("accept", output: screen.record)
        let dealings = await host.game.state.story.dealings(with: "brannoc")
        #expect(
            dealings == [.init(.bought, item: "silver_sword", gold: 105), .init(.tradedIn, item: "rusty_sword")],
            "\(screen.text)")
        #expect(await host.game.facts(about: "brannoc").contains { $0.contains("traded in 1 × Rusty Sword") })
        screen.clear()
        await host.perform("what did I buy off you?", output: screen.record)
        let live = screen.text
        #expect(live.contains("Silver Sword") && live.contains("traded in 1 Rusty Sword"), "\(live)")
        await host.close()

        // Loaded in a new host: the same dealings, and the same memory.
        let again = try Self.host(store)
        await again.begin(continuing: true) { _ in }
        #expect(await again.game.state.story.dealings(with: "brannoc") == dealings)
        screen.clear()
        await again.perform("what did I buy off you?", output: screen.record)
        #expect(screen.text.contains("traded in 1 Rusty Sword"), "\(screen.text)")
        await again.close()
    }
}
