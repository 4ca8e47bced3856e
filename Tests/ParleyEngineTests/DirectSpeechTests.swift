import Foundation
import GameWorld
import SaveGames
import ScriptedModel
import Testing

@testable import ParleyEngine
@testable import ParleyHost

/// A line said to an NPC directly (`Game.say(_:to:output:)`), wherever the player is: the game decides who hears it.
@Suite struct DirectSpeechTests {
    static func game() throws -> Game {
        Game(
            state: try shippedPack().initialState,
            models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) })
    }

    @Test func anNPCElsewhereAnswersAndThePlayerTalksToItAfterwards() async throws {
        let game = try Self.game()
        let screen = Screen()
        #expect(await game.state.world.npcs["oona"]?.location != game.state.player.location)
        await game.say("hello", to: "oona", output: screen.record)
        #expect(screen.text.contains("Oona"), "\(screen.text)")
        #expect(await game.partner == "oona")
        #expect(await game.npcsTalkedTo == ["oona"])
        let transcript = try #require(await game.session(of: "oona")?.transcript)
        #expect(transcript.description.contains("hello"))
        // The next line typed goes to her as well.
        await game.perform("what do you do here?") { _ in }
        #expect(await game.session(of: "oona")?.transcript.description.contains("what do you do here?") == true)
    }

    @Test func aTradeWithAnNPCElsewhereIsStillRefusedByTheRules() async throws {
        let game = try Self.game()
        try await game.apply(StatePatch(player: .init(gold: 100, location: "north_gate")))
        let screen = Screen()
        await game.say("I'll take the lantern", to: "mira", output: screen.record)
        #expect(await game.pendingOffers["mira"] == nil)
        let reasons = await game.refusedOffers.flatMap(\.reasons)
        #expect(
            reasons.contains { $0.contains("north_gate") || $0.contains("North Gate") }, "\(reasons) \(screen.text)")
        // Where the game brings them together, she sells.
        try await game.apply(StatePatch(player: .init(location: "market_square")))
        await game.say("I'll take the lantern", to: "mira", output: screen.record)
        let refused = await game.refusedOffers
        #expect(await game.pendingOffers["mira"] != nil, "\(screen.text) \(refused)")
    }

    @Test func anUnknownNPCIsAProblemAndChangesNothing() async throws {
        let game = try Self.game()
        let screen = Screen()
        await game.say("hello", to: "nobody", output: screen.record)
        #expect(screen.all == [.problem("There is no NPC \"nobody\" in this world.")])
        #expect(await game.partner == nil)
    }

    @Test func theHostSavesADirectLine() async throws {
        let folder = TemporaryFolder()
        let store = SaveGameStore(folder: folder.url)
        let host = GameHost(
            pack: try shippedPack(), models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) },
            store: store)
        await host.begin(continuing: false) { _ in }
        await host.say("hello", to: "pip") { _ in }
        await host.close()
        let saved = try #require(try store.open(slot: "autosave", access: .readOnly).transcript(npc: "pip"))
        #expect(saved.transcript.description.contains("hello"))
    }
}
