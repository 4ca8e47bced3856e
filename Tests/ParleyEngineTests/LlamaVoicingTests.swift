import Foundation
import GameWorld
import LLMTestSupport
import LanguageModels
import OpenAICompatible
import ScriptedModel
import Testing

@testable import ParleyEngine

/// Grounded and free voicing against the real SmolLM2 on llama-server. What the model says changes with load and
/// version, so these tests assert only what must hold whatever it says: no turn fails, every turn's first words
/// come within the deadline plus a margin, every turn records how its line came to be, the player heard exactly
/// what the transcript keeps, and (grounded) no false claim reaches the player.
@Suite(
    .serialized, .enabled(if: LlamaServerProcess.testsEnabled, Comment(rawValue: LlamaServerProcess.howToEnable)),
    .timeLimit(.minutes(10)))
struct LlamaVoicingTests {
    static let deadline: Duration = .seconds(2)
    /// Time beyond the deadline for cancelling the late request and saying the planned line.
    static let margin: Duration = .seconds(2)
    static let lines = [
        "talk to mira", "hello!", "what do you sell?", "how much is the lantern?", "would you take 15 for it?",
        "accept", "do you have any rope?", "tell me about yourself", "bye",
    ]

    static func play(mode: VoiceMode) async throws -> (game: Game, screen: Screen) {
        try await LlamaServerProcess.with(contextSize: 4096, parallel: 1) { server in
            var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: server.baseURL, apiKey: nil)
            configuration.maximumRetries = 0
            configuration.maximumSentences = mode == .free ? 3 : nil
            let backend = try await OpenAICompatibleLanguageModel.connect(configuration)
            var state = try shippedPack().initialState
            try state.apply(.receivedGold(amount: 30, from: "mira"))
            let game = Game(state: state) { npc, world in
                VoicedModel(
                    voice: backend, planner: ScriptedModel(npc: npc, world: world, seed: 1), mode: mode,
                    firstWordsDeadline: deadline)
            }
            let screen = Screen()
            for line in lines { await game.perform(line, output: screen.record) }
            return (game, screen)
        }
    }

    /// What must hold in either mode.
    static func expectInvariants(of game: Game, screen: Screen, mode: VoiceMode) async throws {
        let problems = screen.all.compactMap { if case .problem(let text) = $0 { text } else { nil } }
        #expect(problems.isEmpty, "\(problems)")
        let recordings = await game.recordings.filter { $0.modelID != TurnRecording.beatModelID }
        #expect(recordings.count >= 7, "\(screen.text)")
        for recording in recordings {
            #expect(recording.failure == nil)
            let voicing = try #require(recording.voicing, "a turn without its voicing: \(recording.input)")
            #expect(voicing.mode == mode)
            if voicing.outcome == .fellBack {
                #expect(voicing.reason != nil && voicing.reason != .planned)
            }
            let firstWords = try #require(
                recording.firstWordsMilliseconds,
                "no first words: \(recording.input) \(voicing.summary) \(recording.responseText ?? "no response")")
            #expect(firstWords <= (deadline + margin).milliseconds, "first words after \(firstWords) ms")
        }
        // The player heard what the transcript keeps.
        let transcript = try #require(await game.conversations["mira"]?.history)
        let said = transcript.compactMap { entry -> String? in
            guard case .response(let response) = entry else { return nil }
            return Game.text(of: response.segments)
        }
        for line in said where !line.isEmpty { #expect(screen.text.contains(line), "not heard: \(line)") }
    }

    @Test func groundedVoicingAnswersInTimeAndNeverSaysAFalseClaim() async throws {
        let (game, screen) = try await Self.play(mode: .grounded)
        try await Self.expectInvariants(of: game, screen: screen, mode: .grounded)
        for recording in await game.recordings {
            #expect(recording.falseClaims.isEmpty, "\(recording.falseClaims)")
            if let voicing = recording.voicing, voicing.outcome != .fellBack || voicing.reason != .deadline {
                #expect(voicing.attempts >= 1)
            }
        }
        // The planner decided the turns: the offer it made was taken.
        #expect(await game.state.player.inventory.contains("lantern"), "\(screen.text)")
        let outcomes = await game.recordings.compactMap(\.voicing).map(\.summary)
        print("llama-server grounded voicing: \(outcomes)")
    }

    @Test func freeVoicingAnswersInTimeAndRecordsItsFallbacks() async throws {
        let (game, screen) = try await Self.play(mode: .free)
        try await Self.expectInvariants(of: game, screen: screen, mode: .free)
        let outcomes = await game.recordings.compactMap(\.voicing).map(\.summary)
        print("llama-server free voicing: \(outcomes)")
    }
}
