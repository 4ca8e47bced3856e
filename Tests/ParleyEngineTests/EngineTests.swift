import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ParleyJSON
import Synchronization
import Testing

@testable import ParleyEngine

/// The shipped content pack.
func shippedPack() throws -> ContentPack {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return try ContentPack.load(from: root.appendingPathComponent("Content"), displayPath: "Content").get()
}

/// Collects what the game shows.
final class Screen: Sendable {
    private let outputs = Mutex<[GameOutput]>([])
    var all: [GameOutput] { outputs.withLock { $0 } }
    func record(_ output: GameOutput) { outputs.withLock { $0.append(output) } }
    func clear() { outputs.withLock { $0.removeAll() } }
    /// The narration and speech as text, speech as `Name: words`.
    var text: String {
        var lines: [String] = []
        for output in all {
            switch output {
            case .narration(let text): lines.append(text)
            case .speechBegan(let npc): lines.append("\(npc): ")
            case .speech(let words): lines[lines.count - 1] += words
            case .speechEnded, .thinking, .notice: break
            case .problem(let text): lines.append("! " + text)
            case .goalReached(let goal): lines.append("GOAL: " + goal)
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// A game on the shipped world whose NPCs all use `model`.
func game(_ model: MockLanguageModel, state: GameState? = nil) throws -> Game {
    let pack = try shippedPack()
    return Game(state: state ?? pack.initialState, models: { _, _ in model })
}

@Suite struct WorldCommandTests {
    @Test func lookGoTakeDropAndInventory() async throws {
        let game = try game(MockLanguageModel(replies: []))
        let screen = Screen()
        await game.perform("look", output: screen.record)
        #expect(screen.text.hasPrefix("Market Square"))
        #expect(screen.text.contains("Here: Mira Quickcoin."))
        #expect(screen.text.contains("Exits: north (North Gate), east"))
        screen.clear()
        await game.perform("take apple", output: screen.record)
        #expect(screen.text == "You take the Red Apple.")
        #expect(await game.state.player.inventory.quantity(of: "apple") == 1)
        await game.perform("drop bread", output: screen.record)
        #expect(await game.state.player.inventory.quantity(of: "bread") == 1)
        screen.clear()
        await game.perform("i", output: screen.record)
        #expect(screen.text.contains("Gold: 14"))
        await game.perform("e", output: screen.record)
        #expect(await game.state.player.location == "smithy")
        await game.perform("go west", output: screen.record)
        await game.perform("south", output: screen.record)
        await game.perform("s", output: screen.record)
        screen.clear()
        await game.perform("down", output: screen.record)
        #expect(screen.text.hasPrefix("! The cellar steps vanish"))
        #expect(await game.state.player.location == "old_mill")
    }

    @Test(arguments: ["jump", "take", "go", "talk to nobody", "xyzzy"])
    func unknownInputGetsAHelpfulMessage(_ line: String) async throws {
        let game = try game(MockLanguageModel(replies: []))
        let screen = Screen()
        await game.perform(line, output: screen.record)
        guard case .problem(let message)? = screen.all.first else {
            Issue.record("no problem reported for \(line)"); return
        }
        #expect(!message.isEmpty)
    }
}

@Suite struct ConversationTests {
    @Test func talkingSendsTheArrivalAndShowsTheReply() async throws {
        let model = MockLanguageModel(replies: [.text("Morning, friend!")])
        let game = try game(model)
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        #expect(screen.text == "Mira Quickcoin: Morning, friend!")
        #expect(await game.partner == "mira")
        let request = try #require(model.requests.first)
        guard case .instructions(let instructions) = request.transcript.first else {
            Issue.record("no instructions"); return
        }
        #expect(instructions.segments.first?.description.hasPrefix("You are Mira Quickcoin in") == true)
        guard case .structure(let context)? = instructions.segments.last else {
            Issue.record("no game context"); return
        }
        #expect(context.source == "GameContext")
        #expect(try context.content.value(String.self, forProperty: "npc") == "mira")
        guard case .prompt(let prompt)? = request.transcript.last, case .structure(let event)? = prompt.segments.last
        else {
            Issue.record("no event prompt"); return
        }
        #expect(event.source == "GameEvent")
        #expect(event.content.jsonString == #"{"event":"arrived"}"#)
        #expect(
            instructions.toolDefinitions.map(\.name) == [
                "lookUpStock", "inspectPlayer", "offerTrade", "giveItem", "acceptGift",
            ])
    }

    @Test func theGuardIsToldSheDoesNotTrade() async throws {
        let model = MockLanguageModel(replies: [.text("Move along.")])
        let game = try game(model)
        let screen = Screen()
        await game.perform("n", output: screen.record)
        await game.perform("talk to oona", output: screen.record)
        let instructions = try #require(model.requests.first?.transcript.instructions)
        #expect(instructions.segments.first?.description.contains("You do not trade.") == true)
    }

    @Test func aValidOfferWaitsAndAcceptingAppliesItExactly() async throws {
        let model = MockLanguageModel(replies: [
            .text("Morning!"),
            .toolCall("offerTrade", arguments: #"{"action":"sell","item":"lantern","quantity":1,"price":20}"#),
            .text("Twenty gold and it's yours."),
            .text("Pleasure doing business!"),
        ])
        var state = try shippedPack().initialState
        try state.apply(.receivedGold(amount: 10, from: "mira"))  // 24 gold now, enough for the lantern
        let game = try game(model, state: state)
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform("I'll take the lantern", output: screen.record)
        #expect(await game.pendingOffers["mira"]?.summary == "Mira Quickcoin offers 1 Brass Lantern for 20 gold.")
        let before = await game.state
        #expect(before.player.gold == 24)
        screen.clear()
        await game.perform("accept", output: screen.record)
        #expect(
            screen.text
                == "You buy 1 Brass Lantern for 20 gold.\nMira Quickcoin: Pleasure doing business!")
        let after = await game.state
        #expect(after.player.gold == 4)
        #expect(after.player.inventory.quantity(of: "lantern") == 1)
        #expect(after.world.npcs["mira"]?.gold == before.world.npcs["mira"]!.gold + 20)
        #expect(after.world.npcs["mira"]?.inventory.quantity(of: "lantern") == 0)
        #expect(after.totalGold == before.totalGold)
        #expect(await game.pendingOffers.isEmpty)
        // The NPC saw the acceptance as an event.
        let last = try #require(model.requests.last?.transcript.last)
        #expect(last.description.contains("accepts your offer"))
    }

    @Test func anInvalidOfferIsRefusedAndChangesNothing() async throws {
        let model = MockLanguageModel(replies: [
            .toolCall("offerTrade", arguments: #"{"action":"sell","item":"lantern","quantity":1,"price":1}"#),
            .text("Hm, let me think again."),
        ])
        let game = try game(model)
        let before = await game.state
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        #expect(await game.state == before)
        #expect(await game.pendingOffers.isEmpty)
        let refusals = await game.refusedOffers
        #expect(refusals.count == 1)
        #expect(refusals.first?.reasons.contains { $0.contains("accepts no less than 20") } == true)
        // The model was told why.
        let output = try #require(model.requests.last?.transcript.last)
        #expect(output.description.contains(#""status":"refused""#))
    }

    @Test func givingTheLocketToTheCollectorReachesTheGoal() async throws {
        var state = try shippedPack().initialState
        for event: GameEvent in [
            .moved(from: "market_square", to: "river_lane"), .moved(from: "river_lane", to: "curio_house"),
        ] { try state.apply(event) }
        // The player found the locket (as if they had fetched it from the cellar).
        var world = state.world
        world.locations["curio_house"]?.items.add("moonpetal_locket")
        state = GameState(world: world, player: state.player)
        try state.apply(.tookItem(item: "moonpetal_locket", quantity: 1, from: "curio_house"))
        // Aurelio's content answers the gift with an authored beat ("instead" of the model), whose effects give the
        // compass back through the rules; the model is not asked, but sees the beat in the transcript next turn.
        let model = MockLanguageModel(replies: [.text("Anything else I can do for you?")])
        let game = try game(model, state: state)
        let screen = Screen()
        await game.perform("give locket to aurelio", output: screen.record)
        #expect(screen.all.last == .goalReached("Bring the Moonpetal Locket to Aurelio Finch at Finch's Curiosities."))
        #expect(
            screen.text.contains("Aurelio Finch: My... my Moonpetal Locket.") || screen.text.contains("Is it... it is!")
        )
        #expect(model.requests.isEmpty)
        let after = await game.state
        #expect(after.player.inventory.contains("brass_compass"))
        #expect(after.story.quests["locket"] == "returned")
        #expect(after.story.flags.contains("locket_returned"))
        let transcript = try #require(await game.session(of: "aurelio")?.transcript)
        #expect(transcript.last?.description.contains("Moonpetal Locket") == true)
        await game.perform("say thank you", output: screen.record)
        let next = try #require(model.requests.first?.transcript)
        #expect(next.description.contains("gives you the Moonpetal Locket"))
    }

    @Test func aFailingModelLosesNothingAndTheTurnCanBeRetried() async throws {
        struct Down: Error, CustomStringConvertible { var description: String { "the server is down." } }
        let model = MockLanguageModel(replies: [.text("Hello!"), .failure(Down()), .text("Twelve gold.")])
        let game = try game(model)
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        let transcript = try #require(await game.session(of: "mira")?.transcript)
        screen.clear()
        await game.perform("how much is the rope?", output: screen.record)
        #expect(screen.text.hasPrefix("! Mira Quickcoin did not answer: the server is down. Your words were not lost"))
        #expect(await game.session(of: "mira")?.transcript == transcript)
        screen.clear()
        await game.perform("how much is the rope?", output: screen.record)
        #expect(screen.text == "Mira Quickcoin: Twelve gold.")
    }

    @Test func eachTurnRecordsTheGameContext() async throws {
        let game = try game(MockLanguageModel(replies: [.text("Hi!"), .text("Bye!")]))
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform("bye", output: screen.record)
        #expect(await game.partner == nil)
        let annotated = try #require(await game.annotatedTranscripts["mira"])
        #expect(annotated.annotations["model.id"] == "mock")
        #expect(annotated.turnAnnotations.count == 2)
        let turn = try #require(annotated.turnAnnotations.values.first)
        #expect(turn["player"] == "Traveller")
        #expect(turn["gold"] == "14")
        #expect(turn["location"] == "market_square")
        #expect(turn["inventory"] == "1 × aunts_letter, 2 × bread, 1 × rusty_sword")
        // Round trip through JSON.
        #expect(try AnnotatedTranscript(json: annotated.jsonString()) == annotated)
    }

    @Test func historyShowsTheConversationWithoutInstructions() async throws {
        let game = try game(MockLanguageModel(replies: [.text("Hi!"), .text("Rope is 8.")]))
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform("say \"how much is rope?\"", output: screen.record)
        screen.clear()
        await game.perform("history", output: screen.record)
        #expect(
            screen.text
                == "(Traveller comes up to you.)\nMira Quickcoin: Hi!\nYou: how much is rope?\nMira Quickcoin: Rope is 8."
        )
    }
}

@Suite struct GameCommandTests {
    @Test(arguments: [
        ("look", false, GameCommand.look), ("l", false, .look), ("n", false, .go("north")),
        ("go East", false, .go("east")),
        ("take the lantern", false, .take("lantern")), ("pick up apple", false, .take("apple")),
        ("i", false, .inventory),
        ("talk to Mira", false, .talk("Mira")), ("speak with the guard", false, .talk("guard")),
        ("say \"hello there\"", true, .say("hello there")), ("how much?", true, .say("how much?")),
        ("give locket to aurelio", false, .give(item: "locket", to: "aurelio")), ("accept", true, .accept),
        ("yes", true, .say("yes")), ("bye", true, .bye), ("", false, .nothing), ("quit", false, .quit),
        ("history", true, .history), ("offers", false, .offers),
    ])
    func parsing(_ line: String, _ talking: Bool, _ expected: GameCommand) {
        #expect(GameCommand.parse(line, talking: talking) == expected)
    }
}
