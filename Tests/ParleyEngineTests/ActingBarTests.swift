import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import NPCContract
import ScriptedModel
import Synchronization
import Testing

@testable import ParleyEngine
@testable import ParleyEvaluation

/// The acting bar: a spoken line heard less surely than its `HeardSpeech.minimumActingConfidence` is answered, but
/// cannot make the NPC act. Its offers, gifts and the game's actions are refused (`RefusalReason.unclearSpeech`) where
/// the tools act, for the scripted model and a server's alike; nothing in the game changes, and the NPC asks again.
/// The same line above the bar acts.
@Suite struct ActingBarTests {
    static let scripted: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }

    /// A line heard at `confidence` under a bar of 0.5.
    static func heard(_ text: String, at confidence: Double?) -> HeardSpeech {
        HeardSpeech(text: text, confidence: confidence, recognizer: "test", minimumActingConfidence: 0.5)
    }

    /// What the NPC says instead of acting on `heard`.
    static func askAgain(_ heard: String) -> String {
        Lexicon.english.text(.askAgainToAct, ["heard": heard])
    }

    @Test func aLineBelowTheBarThatWouldMakeAnOfferOffersNothingAndIsAskedAgain() async throws {
        let game = Game(state: try shippedPack().initialState, models: Self.scripted)
        let before = await game.state
        let screen = Screen()
        await game.say(Self.heard("sell me some rope", at: 0.3), to: "mira", output: screen.record)
        #expect(await game.pendingOffers.isEmpty, "\(screen.text)")
        #expect(await game.state == before)
        #expect(screen.text == "Mira Quickcoin: " + Self.askAgain("sell me some rope"))
        // The refusal is in the turn, as every refusal is: the tool's output, and the recording.
        let recording = try #require(await game.recordings.last)
        #expect(recording.heard?.mayAct == false)
        #expect(recording.jsonValue["heard"]?["mayAct"] == false)
        #expect(recording.jsonValue["heard"]?["minimumActingConfidence"]?.doubleValue == 0.5)
        #expect(recording.unclearSpeechRefusals.count == 1)
        #expect(recording.unclearSpeechRefusals.first?.hasPrefix("offerTrade ") == true)
        // The stock was still looked up: reading is not acting.
        #expect(recording.toolCalls.contains { $0.hasPrefix("lookUpStock") })
        // Not the model's mistake: the refused offer is known, marked, and no feedback report is filed.
        #expect(await game.refusedOffers.map(\.unclearSpeech) == [true])
        #expect(await game.feedback.isEmpty)
    }

    @Test func theSameLineAboveTheBarMakesTheOffer() async throws {
        let game = Game(state: try shippedPack().initialState, models: Self.scripted)
        let screen = Screen()
        await game.say(Self.heard("sell me some rope", at: 0.7), to: "mira", output: screen.record)
        let offer = try #require(await game.pendingOffers["mira"], "\(screen.text)")
        #expect(offer.summary.contains("Coil of Rope"))
        #expect(!screen.text.contains(Self.askAgain("sell me some rope")))
        let recording = try #require(await game.recordings.last)
        #expect(recording.heard?.mayAct == true)
        #expect(recording.unclearSpeechRefusals.isEmpty)
        #expect(await game.refusedOffers.isEmpty)
    }

    @Test func aGiftBelowTheBarIsNotTakenAboveItItIs() async throws {
        let line = "here, have a loaf of bread on me"
        let start = try shippedPack().initialState
        let bread = start.player.inventory.quantity(of: "bread")
        #expect(bread > 0)
        let unsure = Game(state: start, models: Self.scripted)
        let screen = Screen()
        await unsure.say(Self.heard(line, at: 0.2), to: "mira", output: screen.record)
        #expect(await unsure.state == start, "\(screen.text)")
        #expect(screen.text == "Mira Quickcoin: " + Self.askAgain(line))
        #expect(await unsure.recordings.last?.unclearSpeechRefusals.first?.hasPrefix("acceptGift ") == true)
        #expect(await unsure.events.isEmpty)

        let sure = Game(state: start, models: Self.scripted)
        await sure.say(Self.heard(line, at: 0.9), to: "mira") { _ in }
        #expect(await sure.state.player.inventory.quantity(of: "bread") == bread - 1)
    }

    @Test func aLineWithoutAConfidenceActsOnlyUnderABarOfNothing() {
        #expect(!Self.heard("sell me some rope", at: nil).mayAct)
        #expect(HeardSpeech(text: "x", confidence: nil, recognizer: "t", minimumActingConfidence: 0).mayAct)
        #expect(HeardSpeech(text: "x", confidence: nil, recognizer: "t").mayAct, "no bar: acts, as before the bar")
        #expect(HeardSpeech(text: "x", confidence: 0.5, recognizer: "t", minimumActingConfidence: 0.5).mayAct)
        #expect(!HeardSpeech(text: "x", confidence: 0.49, recognizer: "t", minimumActingConfidence: 0.5).mayAct)
        // The bar survives the recording's JSON; a recording without one reads as none.
        let heard = Self.heard("sell me some rope", at: 0.3)
        #expect(HeardSpeech(jsonValue: heard.jsonValue) == heard)
        let old = HeardSpeech(text: "x", confidence: 0.3, recognizer: "t")
        #expect(old.jsonValue["mayAct"] == nil)
        #expect(HeardSpeech(jsonValue: old.jsonValue)?.minimumActingConfidence == nil)
    }

    @Test func aServerModelsOfferIsRefusedWhereTheToolActsAndTheModelIsToldWhy() async throws {
        let model = MockLanguageModel(replies: [
            .toolCall("offerTrade", arguments: #"{"action":"sell","item":"rope","quantity":1,"price":8}"#),
            .text("Sorry, friend, say that again?"),
        ])
        let game = try game(model)
        let before = await game.state
        await game.say(Self.heard("buy rope", at: 0.3), to: "mira") { _ in }
        #expect(await game.pendingOffers.isEmpty)
        #expect(await game.state == before)
        // The tool's output, which the model read, gives the reason as words and as data.
        let transcript = try #require(model.requests.last?.transcript)
        let outputs = transcript.compactMap { entry -> Transcript.ToolOutput? in
            if case .toolOutput(let output) = entry { output } else { nil }
        }
        guard let output = outputs.last, case .action(let result)? = NPCToolOutput(output)
        else {
            Issue.record("no offerTrade output in \(transcript)")
            return
        }
        #expect(result.status == .refused)
        #expect(result.reasons == [.unclearSpeech(heard: "buy rope")])
        #expect(result.generatedContent.jsonValue["refusals"]?[0]?["kind"] == "unclearSpeech")
        #expect(RefusalReason.unclearSpeech(heard: "buy rope").message.contains("say it again"))
        #expect(await game.refusedOffers.first?.offer?.npcGives.items.first?.item == "rope")
        #expect(await game.feedback.isEmpty)

        // Above the bar the same call makes the offer.
        let sure = MockLanguageModel(replies: [
            .toolCall("offerTrade", arguments: #"{"action":"sell","item":"rope","quantity":1,"price":8}"#),
            .text("Eight gold, friend."),
        ])
        let other = try ParleyEngineTests.game(sure)
        await other.say(Self.heard("buy rope", at: 0.8), to: "mira") { _ in }
        #expect(await other.pendingOffers["mira"] != nil)
    }

    @Test func aServerModelsGiftBelowTheBarIsRefused() async throws {
        let model = MockLanguageModel(replies: [
            .toolCall("acceptGift", arguments: #"{"item":"bread","quantity":1}"#),
            .text("Say again?"),
        ])
        let game = try game(model)
        let before = await game.state
        await game.say(Self.heard("have a loaf", at: 0.1), to: "mira") { _ in }
        #expect(await game.state == before)
        #expect(await game.events.isEmpty)
        let given = MockLanguageModel(replies: [
            .toolCall("giveItem", arguments: #"{"item":"rope","quantity":1}"#), .text("Here."),
        ])
        let giving = try ParleyEngineTests.game(given)
        await giving.say(Self.heard("give me a rope", at: 0.1), to: "mira") { _ in }
        #expect(await giving.state == before)
    }

    @Test func theGamesActionIsNotCalledBelowTheBar() async throws {
        let game = Game(state: try shippedPack().initialState, models: Self.scripted)
        await game.perform("n") { _ in }
        await game.perform("talk to oona") { _ in }
        let calls = Mutex(0)
        game.onAction { _ in
            calls.withLock { $0 += 1 }
            return .output(["opened": true, "message": "The North Gate grinds open."])
        }
        let screen = Screen()
        let line = "please signal the gatehouse to open the gate"
        await game.say(Self.heard(line, at: 0.3), to: "oona", output: screen.record)
        #expect(calls.withLock { $0 } == 0)
        #expect(screen.text.hasSuffix(Self.askAgain(line)), "\(screen.text)")
        let results = GameActionTests.results(in: try #require(await game.session(of: "oona")?.transcript))
        #expect(results.map(\.status) == [.refused])
        #expect(results.first?.refusals == [.unclearSpeech(heard: line)])
        #expect(await game.refusedActions.map(\.unclearSpeech) == [true])
        #expect(await game.feedback.isEmpty)
        // Heard surely, it is called.
        await game.say(Self.heard(line, at: 0.9), to: "oona", output: screen.record)
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func aReplayRefusesUnderTheRecordedBar() async throws {
        let game = Game(state: try shippedPack().initialState, models: Self.scripted)
        await game.say(Self.heard("sell me some rope", at: 0.3), to: "mira") { _ in }
        let recordings = await game.recordings
        let report = await Replay.run(recordings, pack: try shippedPack(), models: Self.scripted)
        #expect(report.turns.map(\.status) == [.same], "\(report.turns)")
        #expect(report.turns.first?.replayedText == Self.askAgain("sell me some rope"))
    }
}
