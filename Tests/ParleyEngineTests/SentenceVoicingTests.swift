import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ScriptedModel
import Synchronization
import Testing

@testable import ParleyEngine
@testable import ParleyEvaluation

/// Speech sentence by sentence with a server model: each sentence is checked and shown as soon as it is complete, a
/// sentence that fails is never shown and the rest of the planned line is said instead, and the transcript keeps
/// exactly what was shown. The mock voice streams fixed pieces and holds its stream at a gate until the test has
/// seen the first sentence: the first sentence must come while the model is still generating.
@Suite(.timeLimit(.minutes(10))) struct SentenceVoicingTests {
    /// A gate the mock waits at until the test opens it.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        func wait() async {
            await withCheckedContinuation { continuation in
                let isOpen = state.withLock { state in
                    if !state.open { state.waiters.append(continuation) }
                    return state.open
                }
                if isOpen { continuation.resume() }
            }
        }
    }

    /// What the player was shown of a turn, and how many pieces the voice had sent when the first sentence came.
    final class Heard: Sendable {
        let screen = Screen()
        let gate = Gate()
        let released = Mutex(0)
        let releasedAtFirstSpeech = Mutex<Int?>(nil)

        func record(_ output: GameOutput) {
            screen.record(output)
            if case .speech = output {
                let count = released.withLock { $0 }
                releasedAtFirstSpeech.withLock { if $0 == nil { $0 = count } }
                gate.open()
            }
        }

        /// The speech pieces shown.
        var speech: [String] { screen.all.compactMap { if case .speech(let text) = $0 { text } else { nil } } }

        /// A reply streamed in `pieces`, the ones from `held` on only after the test has seen a speech event.
        func reply(_ pieces: [String], heldFrom held: Int) -> MockLanguageModel.Reply {
            .deltas(pieces) { index in
                if index >= held { await self.gate.wait() }
                self.released.withLock { $0 = index + 1 }
            }
        }
    }

    /// The planned line in a voice's request.
    static func planned(in request: GenerationRequest) -> String { VoicingTests.plannedLine(in: request) }

    /// The text of the last response in Mira's transcript and history.
    static func saved(in game: Game) async throws -> (transcript: String, history: String) {
        let conversation = try #require(await game.conversations["mira"])
        func last(_ entries: some BidirectionalCollection<Transcript.Entry>) -> String {
            entries.last { if case .response = $0 { true } else { false } }.map { Game.text(of: $0.segments) } ?? ""
        }
        return (last(conversation.session.transcript), last(conversation.history))
    }

    // MARK: - Grounded

    @Test func groundedTheFirstSentenceIsShownBeforeTheVoiceHasFinished() async throws {
        let heard = Heard()
        let voice = MockLanguageModel { request in
            // The greeting is said at once; the price is held.
            guard Self.planned(in: request).contains("25") else { return .text(Self.planned(in: request)) }
            let text = "Well now, " + Self.planned(in: request)
            // The first piece ends one character into the second sentence: the first is then known to be complete.
            let characters = Array(text)
            let mark = try #require(
                characters.indices.first {
                    ".!?".contains(characters[$0]) && characters.indices.contains($0 + 2) && characters[$0 + 1] == " "
                })
            let cut = mark + 3
            let first = String(text.prefix(cut))
            let rest = Array(text.dropFirst(cut))
            let pieces = stride(from: 0, to: rest.count, by: 4).map { String(rest[$0..<min($0 + 4, rest.count)]) }
            return heard.reply([first] + pieces, heldFrom: 1)
        }
        let game = try VoicingTests.game(voice: voice)
        await game.perform("talk to mira", output: { _ in })
        await game.perform("how much is the lantern?", output: heard.record)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        let planned = try #require(voicing.planned)
        #expect(voicing.outcome == .voiced, "\(voicing)")
        // The first sentence was shown while the voice had sent only its first piece.
        #expect(heard.releasedAtFirstSpeech.withLock { $0 } == 1)
        #expect(heard.speech.count >= 2, "one speech event per sentence: \(heard.speech)")
        #expect(heard.speech.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(heard.speech.joined() == "Well now, " + planned)
        let saved = try await Self.saved(in: game)
        #expect(saved.transcript == heard.speech.joined())
        #expect(saved.history == heard.speech.joined())
    }

    @Test func groundedAFailingSecondSentenceIsNeverShownAndThePlannedLineIsSaidInstead() async throws {
        let heard = Heard()
        let voice = MockLanguageModel { request in
            guard Self.planned(in: request).contains("25") else { return .text(Self.planned(in: request)) }
            return heard.reply(["Well now, friend. T", "he Brass Lantern is 3 gold, a steal."], heldFrom: 1)
        }
        let game = try VoicingTests.game(voice: voice)
        await game.perform("talk to mira", output: { _ in })
        await game.perform("how much is the lantern?", output: heard.record)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        let planned = try #require(voicing.planned)
        #expect(voicing.outcome == .partlyVoiced, "\(voicing)")
        #expect(voicing.reason == .check)
        #expect(voicing.attempts == 1)
        #expect(voicing.problems.count == 1)
        #expect(voicing.problems.first?.contains("it adds the number 3") == true, "\(voicing.problems)")
        #expect(heard.releasedAtFirstSpeech.withLock { $0 } == 1)
        // Nothing of the failed sentence reached the player: the first sentence, then the planned line (the first
        // sentence stated no fact of it, so it is said whole).
        #expect(heard.speech == ["Well now, friend.", " " + planned])
        #expect(!heard.screen.text.contains("3 gold"))
        #expect(turn.annotations[TurnVoicing.annotationKey] == "partlyVoiced:check")
        #expect(turn.falseClaims.isEmpty)
        let saved = try await Self.saved(in: game)
        #expect(saved.transcript == "Well now, friend. " + planned)
        #expect(saved.history == saved.transcript)
    }

    @Test func groundedAFactStillOwedAtTheEndIsSaidFromThePlannedLine() async throws {
        let heard = Heard()
        let voice = MockLanguageModel { request in
            guard Self.planned(in: request).contains("25") else { return .text(Self.planned(in: request)) }
            // Every sentence is true, but the line never gives the price.
            return heard.reply(["Well now, friend. F", "ine lantern, that."], heldFrom: 1)
        }
        let game = try VoicingTests.game(voice: voice)
        await game.perform("talk to mira", output: { _ in })
        await game.perform("how much is the lantern?", output: heard.record)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        let planned = try #require(voicing.planned)
        #expect(voicing.outcome == .partlyVoiced, "\(voicing)")
        #expect(voicing.reason == .check)
        #expect(voicing.problems.first?.contains("it drops the number 25") == true, "\(voicing.problems)")
        // Both sentences were true and said; the planned sentence with the price follows, and not the one that only
        // names the lantern, which was said.
        let world = try shippedPack().world
        let rest = VoicedLineCheck(vocabulary: ClaimVocabulary(world: world), sentenceBudget: .max)
            .remainder(of: planned, after: "Well now, friend. Fine lantern, that.")
        #expect(rest.contains("25"))
        #expect(heard.speech == ["Well now, friend.", " Fine lantern, that.", " " + rest])
        let saved = try await Self.saved(in: game)
        #expect(saved.transcript == heard.speech.joined())
        #expect(saved.history == saved.transcript)
    }

    // MARK: - Free

    @Test func freeTheFirstSentenceIsShownEarlyAndAFalseOneIsReplacedByThePlannersLine() async throws {
        let heard = Heard()
        let voice = MockLanguageModel(replies: [
            .text("Hello, hello!"),
            heard.reply(["Aye, friend. T", "he Brass Lantern is 5 gold, a bargain."], heldFrom: 1),
        ])
        let game = try VoicingTests.game(voice: voice, mode: .free)
        await game.perform("talk to mira", output: { _ in })
        await game.perform("how much is the lantern?", output: heard.record)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        #expect(voicing.mode == .free)
        #expect(voicing.outcome == .partlyVoiced, "\(voicing)")
        #expect(voicing.reason == .check)
        #expect(voicing.problems.first?.contains("false claim: price") == true, "\(voicing.problems)")
        let planned = try #require(voicing.planned)
        #expect(planned.contains("25 gold"))
        #expect(heard.releasedAtFirstSpeech.withLock { $0 } == 1)
        #expect(heard.speech == ["Aye, friend.", " " + planned])
        #expect(!heard.screen.text.contains("is 5 gold"))
        #expect(!heard.screen.text.contains("bargain"))
        let saved = try await Self.saved(in: game)
        #expect(saved.transcript == "Aye, friend. " + planned)
        #expect(saved.history == saved.transcript)
        // The server's turn was taken back: the transcript holds the player's words once, and nothing false.
        let transcript = try #require(await game.conversations["mira"]?.session.transcript)
        #expect(transcript.filter { if case .prompt = $0 { true } else { false } }.count == 2)
        #expect(!transcript.description.contains("bargain"))
        #expect(turn.recording.falseClaims.isEmpty)
    }

    @Test func freeATrueReplyIsShownSentenceBySentenceAndKeptAsShown() async throws {
        let heard = Heard()
        let voice = MockLanguageModel(replies: [
            .text("Hello, hello!"),
            heard.reply(["The Brass Lantern is 25 gold, friend. A", " bargain!   Truly."], heldFrom: 1),
        ])
        let game = try VoicingTests.game(voice: voice, mode: .free)
        await game.perform("talk to mira", output: { _ in })
        await game.perform("how much is the lantern?", output: heard.record)
        let turn = try #require(await game.lastTurn)
        #expect(turn.recording.voicing?.outcome == .voiced)
        #expect(heard.releasedAtFirstSpeech.withLock { $0 } == 1)
        #expect(heard.speech == ["The Brass Lantern is 25 gold, friend.", " A bargain!", " Truly."])
        let saved = try await Self.saved(in: game)
        #expect(saved.transcript == "The Brass Lantern is 25 gold, friend. A bargain! Truly.")
        #expect(saved.history == saved.transcript)
    }
}
