import GameWorld
import LanguageModels
import LanguageModelsTesting
import ScriptedModel
import Testing

@testable import ParleyEngine

/// A gift fires the NPC's `itemGiven` beats however it is made: with the `give` command, or in words the NPC's model
/// answers with `acceptGift`. Exactly once per gift; a refused gift fires nothing.
@Suite struct GiftBeatTests {
    /// The shipped world with the player at `location`, carrying `items` besides the pack's start.
    static func state(at location: LocationID, carrying items: [ItemID] = []) throws -> GameState {
        let pack = try shippedPack()
        var player = pack.initialState.player
        player.location = location
        for item in items { player.inventory.add(item) }
        return GameState(world: pack.world, player: player)
    }

    /// How many times any of an NPC's beats for an event kind fired.
    static func timesFired(_ beats: [String], of npc: NPCID, in state: GameState) -> Int {
        beats.map { state.story.timesFired($0, of: npc) }.reduce(0, +)
    }

    @Test(arguments: 0..<4)
    func aLocketHandedOverInWordsBringsTheQuestHome(seed: UInt64) async throws {
        let models: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: seed) }
        let game = Game(state: try Self.state(at: "curio_house", carrying: ["moonpetal_locket"]), models: models)
        let screen = Screen()
        await game.perform("talk to aurelio", output: screen.record)
        await game.perform("I found your locket! Here it is.", output: screen.record)
        let after = await game.state
        // The model took the locket and gave the compass (the rule's calls) ...
        let calls = await game.lastTurn?.recording.toolCalls ?? []
        #expect(calls.contains { $0.hasPrefix("acceptGift") }, "\(calls)")
        #expect(after.world.npcs["aurelio"]?.inventory.contains("moonpetal_locket") == true)
        #expect(after.player.inventory.quantity(of: "brass_compass") == 1)
        #expect(after.isGoalReached)
        // ... and the gift fired the locket beat, once: the story moves on as with `give locket`.
        #expect(after.stage(of: "locket") == "returned")
        #expect(after.flags.contains("locket_returned"))
        #expect(after.story.attitude(of: "aurelio") == 50)
        #expect(Self.timesFired(["locket_home", "locket_home_compass_sold"], of: "aurelio", in: after) == 1)
        // The NPC answered the gift in its own turn: no second reaction is said after it.
        #expect(screen.text.components(separatedBy: "Moonpetal Locket. Oh, my dear").count <= 2, "\(screen.text)")

        // Hesper's gossip follows: the locket is home, not lost.
        var player = after.player
        player.location = "drowsy_goose"
        let inn = Game(state: GameState(world: after.world, player: player, story: after.story), models: models)
        screen.clear()
        await inn.perform("talk to hesper", output: screen.record)
        screen.clear()
        await inn.perform("any news?", output: screen.record)
        #expect(screen.text.contains("You're the news"), "\(screen.text)")
        #expect(!screen.text.contains("still pining for his locket"), "\(screen.text)")
    }

    @Test func aGiftInWordsFiresPipsBeat() async throws {
        let game = Game(state: try Self.state(at: "river_lane"), models: ScriptingTests.scripted)
        let screen = Screen()
        await game.perform("talk to pip", output: screen.record)
        #expect(await game.state.story.attitude(of: "pip") == 0)
        await game.perform("here, take this bread", output: screen.record)
        let after = await game.state
        #expect(after.world.npcs["pip"]?.inventory.contains("bread") == true, "\(screen.text)")
        #expect(after.story.timesFired("present", of: "pip") == 1)
        #expect(after.story.attitude(of: "pip") == 10)
    }

    @Test func aGiftAcceptedByAServerModelFiresTheBeatToo() async throws {
        let model = MockLanguageModel(replies: [
            .text("Wotcha."),
            .toolCall("acceptGift", arguments: #"{"item":"bread","quantity":1}"#),
            .text("Cor, ta!"),
        ])
        let game = try game(model, state: try Self.state(at: "river_lane"))
        let screen = Screen()
        await game.perform("talk to pip", output: screen.record)
        await game.perform("have a loaf on me", output: screen.record)
        let after = await game.state
        #expect(after.player.inventory.quantity(of: "bread") == 1)
        #expect(after.story.timesFired("present", of: "pip") == 1)
        #expect(after.story.attitude(of: "pip") == 10)
        #expect(screen.text.hasSuffix("Pip Tanner: Cor, ta!"), "\(screen.text)")
    }

    @Test func aRefusedGiftFiresNothing() async throws {
        let model = MockLanguageModel(replies: [
            .text("Wotcha."),
            .toolCall("acceptGift", arguments: #"{"item":"silver_sword","quantity":1}"#),
            .text("You ain't got one, mister."),
        ])
        let game = try game(model, state: try Self.state(at: "river_lane"))
        let screen = Screen()
        await game.perform("talk to pip", output: screen.record)
        let before = await game.state
        await game.perform("have my silver sword", output: screen.record)
        let after = await game.state
        #expect(after.player.inventory == before.player.inventory)
        #expect(after.story == before.story)
    }

    @Test func aGiftThePlayerDoesNotCarryIsRefusedInTheNPCsWordsNotTheGamesMessage() async throws {
        // The tool refuses before the game event would fail, with a typed reason the scripted model says as the NPC:
        // "You don't have any Porcelain Owl.", never "the player has 0 × porcelain_owl, not 1".
        let game = Game(state: try Self.state(at: "river_lane"), models: ScriptingTests.scripted)
        let screen = Screen()
        await game.perform("talk to pip", output: screen.record)
        screen.clear()
        let before = await game.state
        await game.perform("Take this porcelain owl, lad, it's yours.", output: screen.record)
        let calls = await game.lastTurn?.recording.toolCalls ?? []
        #expect(calls.contains { $0.hasPrefix("acceptGift") }, "\(calls)")
        #expect(screen.text.contains("You don't have any Porcelain Owl"), "\(screen.text)")
        #expect(!screen.text.contains("×") && !screen.text.contains("the player has"), "\(screen.text)")
        let after = await game.state
        #expect(after.player.inventory == before.player.inventory)
    }

    @Test func aGiftGivenByCommandAndAcceptedInTheReplyFiresOnce() async throws {
        // The model answers the `give` it witnessed by accepting the bread again: one gift, one beat.
        let model = MockLanguageModel(replies: [
            .text("Wotcha."),
            .toolCall("acceptGift", arguments: #"{"item":"bread","quantity":1}"#),
            .text("Cor, ta!"),
        ])
        let game = try game(model, state: try Self.state(at: "river_lane"))
        let screen = Screen()
        await game.perform("talk to pip", output: screen.record)
        await game.perform("give bread to pip", output: screen.record)
        let after = await game.state
        #expect(after.story.timesFired("present", of: "pip") == 1)
        #expect(after.story.attitude(of: "pip") == 10)
    }

    @Test func twoGiftsFireTwice() async throws {
        let model = MockLanguageModel(replies: [
            .text("Wotcha."),
            .toolCall("acceptGift", arguments: #"{"item":"bread","quantity":1}"#),
            .text("Cor, ta!"),
            .text("Another? Ta!"),
        ])
        let game = try game(model, state: try Self.state(at: "river_lane"))
        let screen = Screen()
        await game.perform("talk to pip", output: screen.record)
        await game.perform("have a loaf on me", output: screen.record)
        await game.perform("give bread to pip", output: screen.record)
        let after = await game.state
        #expect(after.player.inventory.quantity(of: "bread") == 0)
        #expect(after.story.timesFired("present", of: "pip") == 2)
        #expect(after.story.attitude(of: "pip") == 20)
    }

    @Test func acceptingATradeFiresTheTradeBeatOnce() async throws {
        let game = Game(state: try Self.state(at: "river_lane"), models: ScriptingTests.scripted)
        let screen = Screen()
        await game.perform("talk to pip", output: screen.record)
        await game.perform("I'll take a smoked trout", output: screen.record)
        #expect(await !game.pendingOffers.isEmpty, "\(screen.text)")
        await game.perform("accept", output: screen.record)
        let after = await game.state
        #expect(after.player.inventory.contains("smoked_fish"), "\(screen.text)")
        #expect(after.story.timesFired("good_customer", of: "pip") == 1)
        #expect(after.story.attitude(of: "pip") == 5)
        // Declining fires no tradeAccepted beat.
        await game.perform("another trout, please", output: screen.record)
        await game.perform("decline", output: screen.record)
        #expect(await game.state.story.timesFired("good_customer", of: "pip") == 1)
    }
}
