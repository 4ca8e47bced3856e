import GameWorld
import LanguageModels
import LanguageModelsTesting
import Testing

@testable import ParleyEngine

/// A turn is a value: `takeTurn` makes a `TurnResult` and `apply` makes it part of the game, in one place.
@Suite struct TurnResultTests {
    @Test(arguments: ["", "   ", "\n"])
    func aSilentAnswerIsToldToThePlayerAndReportedByTheTurnItself(_ reply: String) async throws {
        let model = MockLanguageModel(replies: [.text("Welcome!"), .text(reply), .text("Lanterns, friend.")])
        let game = try game(model)
        await game.perform("talk to mira", output: { _ in })
        _ = await game.takeNewAttachments()
        let screen = Screen()
        await game.perform("what do you sell?", output: screen.record)
        let turn = try #require(await game.lastTurn)
        #expect(turn.isSilent)
        #expect(screen.text.contains("Mira Quickcoin says nothing."), "\(screen.text)")
        let reports = await game.takeNewAttachments().feedback
        #expect(reports.map(\.kind) == [.emptyReply])
        #expect(reports.first?.attachment.issues.first?.category == .unhelpful)
        #expect(reports.first?.attachment.issues.first?.explanation?.contains("what do you sell?") == true)
        // A turn with words is not silent, and files nothing.
        await game.perform("and the price?", output: screen.record)
        #expect(await game.lastTurn?.isSilent == false)
        #expect(await game.takeNewAttachments().feedback.isEmpty)
    }

    @Test func anAnsweredTurnIsAppliedAsItsResultSays() async throws {
        let model = MockLanguageModel(replies: [.toolCall("lookUpStock"), .text("Lanterns and candles.")])
        let game = try game(model)
        _ = await game.takeNewAttachments()
        await game.perform("talk to mira", output: { _ in })
        let turn = try #require(await game.lastTurn)
        let history = try #require(await game.conversations["mira"]?.history)
        #expect(turn.failure == nil)
        #expect(turn.entries.count == 4)  // prompt, tool calls, tool output, response
        #expect(Array(history.suffix(turn.entries.count)) == turn.entries)
        #expect(turn.recording.entries == turn.entries)
        #expect(turn.recording.failure == nil)
        let first = try #require(turn.entries.first)
        #expect(await game.conversations["mira"]?.turnAnnotations[first.id] == turn.annotations)
        #expect(turn.annotations["location"] != nil)
        #expect(turn.timing.firstWords.map { $0 <= turn.timing.total } ?? false)
        // What a host saves with the turn is the result's recording (and its feedback: none here).
        let attachments = await game.takeNewAttachments()
        #expect(attachments.recordings == [turn.recording])
        #expect(attachments.feedback.isEmpty)
    }

    @Test func aFailedTurnKeepsOnlyItsRecordingAndTheFeedbackOnItsRefusals() async throws {
        // The model proposes an offer the guard refuses, then fails (it runs out of replies) before answering.
        let model = MockLanguageModel(replies: [
            .toolCall("offerTrade", arguments: #"{"action":"sell","item":"lantern","price":1}"#)
        ])
        let game = try game(model)
        let before = await game.state
        await game.perform("talk to mira", output: { _ in })
        let turn = try #require(await game.lastTurn)
        #expect(turn.entries.isEmpty)
        #expect(turn.effects.isEmpty)
        #expect(turn.failure?.contains("say them again") == true)
        #expect(turn.recording.failure != nil)
        #expect(turn.refusals.count == 1)
        #expect(turn.feedback.count == 1)
        #expect(await game.state == before)
        #expect(await game.conversations["mira"]?.history.contains { if case .prompt = $0 { true } else { false } }
            == false)
        let attachments = await game.takeNewAttachments()
        #expect(attachments.recordings == [turn.recording])
        #expect(attachments.feedback == turn.feedback)
    }

    @Test func aFalseClaimInTheAnswerIsCountedInTheResultAndTheRecording() async throws {
        let pack = try shippedPack()
        let lantern = try #require(pack.world.items["lantern"])
        let mira = try #require(pack.world.npcs["mira"])
        let price = mira.trade.askingPrice(forValue: lantern.value)
        let wrong = price * 10 + 7
        let model = MockLanguageModel(replies: [.text("Hello."), .text("The \(lantern.name)? \(wrong) gold, friend.")])
        let game = try game(model)
        await game.perform("talk to mira", output: { _ in })
        #expect(try #require(await game.lastTurn).falseClaims.isEmpty)
        await game.perform("how much is the lantern?", output: { _ in })
        let turn = try #require(await game.lastTurn)
        #expect(turn.falseClaims.map(\.kind) == [.price], "\(turn.falseClaims)")
        #expect(turn.recording.falseClaims == turn.falseClaims.map(\.description))
        // Kept in the recording's JSON, as saves and `parley recordings export` write it.
        let read = try TurnRecording(jsonValue: turn.recording.jsonValue)
        #expect(read.falseClaims == turn.recording.falseClaims)
    }
}
