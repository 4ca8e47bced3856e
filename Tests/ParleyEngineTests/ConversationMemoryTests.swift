import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ScriptedModel
import Testing

@testable import ParleyEngine

/// What an NPC remembers of its dealings with the player comes from the game, not from the model's working
/// transcript: the name the player gave, their trades and gifts, the pending offer. The scripted model answers
/// questions about the past from it.
@Suite struct ConversationMemoryTests {
    /// A game at Mira's stall with 40 gold, played by the scripted model.
    static func game() throws -> Game {
        let pack = try shippedPack()
        var player = pack.initialState.player
        player.location = "market_square"
        player.gold = 40
        let models: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 0) }
        return Game(state: GameState(world: pack.world, player: player), models: models)
    }

    @Test(arguments: ["name's Wren. and you are?", "I'm called Wren", "hi, I'm Wren", "call me Wren"])
    func aNameGivenInEverydayWordsIsRememberedAndRecalled(line: String) async throws {
        let game = try Self.game()
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform(line, output: screen.record)
        #expect(await game.conversationFacts(of: "mira", saying: nil).playerCalled == "Wren")
        screen.clear()
        await game.perform("what's my name?", output: screen.record)
        #expect(screen.text.contains("Wren"), "\(screen.text)")
    }

    @Test func theFactsHoldWhatThePlayerSaidTheyDoForALiving() async throws {
        let game = try Self.game()
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform("I work as a scribe at the guildhall", output: screen.record)
        #expect(await game.conversationFacts(of: "mira", saying: nil).playerOccupation == "a scribe")
        screen.clear()
        await game.perform("what did I say I do for a living?", output: screen.record)
        #expect(screen.text.contains("a scribe"), "\(screen.text)")
        #expect(await game.pendingOffers["mira"] == nil, "a question about the past never makes an offer")
    }

    @Test func theFactsHoldTheNameGivenTheTradesAndThePendingOffer() async throws {
        let game = try Self.game()
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform("My name is tamsin, by the way.", output: screen.record)
        await game.perform("I'll take the lantern", output: screen.record)
        var facts = await game.conversationFacts(of: "mira", saying: nil)
        #expect(facts.playerCalled == "Tamsin")
        #expect(facts.dealings.isEmpty)
        #expect(facts.pendingOffer?.npcGives.items.first?.item == "lantern")

        await game.perform("accept", output: screen.record)
        await game.perform("I'll take a candle", output: screen.record)
        await game.perform("decline", output: screen.record)
        facts = await game.conversationFacts(of: "mira", saying: nil)
        #expect(facts.dealings == [.init(.bought, item: "lantern", quantity: 1, gold: 25)])
        #expect(facts.pendingOffer == nil)
        // Another NPC has had no dealings with the player.
        #expect(await game.conversationFacts(of: "brannoc", saying: nil).dealings.isEmpty)

        screen.clear()
        await game.perform("what did I buy from you?", output: screen.record)
        #expect(screen.text.contains("1 Brass Lantern"), "\(screen.text)")
        #expect(screen.text.contains("25 gold"), "\(screen.text)")
        screen.clear()
        await game.perform("do you remember my name?", output: screen.record)
        #expect(screen.text.contains("Tamsin"), "\(screen.text)")
        #expect(await game.pendingOffers["mira"] == nil, "a question about the past never makes an offer")
    }

    @Test func oldFactsWithoutTheMemoryStillDecode() throws {
        let old = #"{"isFirstMeeting": false, "turns": 3, "lastTopic": "lantern"}"#
        let facts = try JSONDecoder().decode(ConversationFacts.self, from: Data(old.utf8))
        #expect(facts == ConversationFacts(isFirstMeeting: false, turns: 3, lastTopic: "lantern"))
        let encoded = String(decoding: try JSONEncoder().encode(facts), as: UTF8.self)
        #expect(!encoded.contains("dealings"))
    }
}
