import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import Testing

@testable import ParleyEngine

/// A backend that answers like the mock it wraps but declares its own capabilities: whether it writes free text,
/// and a secret it removes from text. The engine must go by these, whatever the backend's type.
struct DeclaringModel: LanguageModel {
    let base: MockLanguageModel
    let writesFreeText: Bool
    /// The secret `redactingSecrets(in:)` removes, or `nil` for none.
    let secret: String?

    var id: String { base.id }
    var version: String { base.version }
    var capabilities: LanguageModelCapabilities { base.capabilities }
    var contextSize: Int { base.contextSize }

    func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        try await base.tokenCount(for: entries)
    }

    func tokenCount(for schema: GenerationSchema) async throws -> Int {
        try await base.tokenCount(for: schema)
    }

    func generate(_ request: GenerationRequest) async throws -> Generation {
        try await base.generate(request)
    }

    func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Error> {
        base.streamGeneration(request)
    }

    func redactingSecrets(in text: String) -> String {
        guard let secret else { return text }
        return text.replacingOccurrences(of: secret, with: "<redacted>")
    }
}

/// The engine asks a backend what it can do through the `LanguageModel` protocol, never by its type.
@Suite struct ModelCapabilityTests {
    /// An error whose text quotes a secret, as a careless server's error page might.
    struct LeakyError: Error, CustomStringConvertible {
        let description: String
    }

    @Test func aFailedTurnIsCleanedOfTheSecretsTheModelNames() async throws {
        let secret = "sk-parley-test-0123456789"
        let mock = MockLanguageModel(replies: [.failure(LeakyError(description: "the key \(secret) was refused."))])
        let model = DeclaringModel(base: mock, writesFreeText: true, secret: secret)
        let game = Game(state: try shippedPack().initialState, models: { _, _ in model })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)

        // The failure reached the player and the recording, without the secret.
        let problems = screen.all.compactMap { if case .problem(let text) = $0 { text } else { nil } }
        let problem = try #require(problems.first)
        #expect(problem.contains("the key <redacted> was refused"), "\(problem)")
        #expect(!problem.contains(secret))
        let recording = try #require(await game.recordings.last)
        let failure = try #require(recording.failure)
        #expect(failure.contains("the key <redacted> was refused"), "\(failure)")
        #expect(!failure.contains(secret))
    }

    /// Trimming a long conversation asks the model for a summary only when it says it writes free text; otherwise
    /// the engine extracts one itself.
    @Test(arguments: [true, false])
    func aSummaryIsAskedOnlyOfAModelThatWritesFreeText(writesFreeText: Bool) async throws {
        let mock = ContextRecoveryTests.chattyMerchant(contextSize: 1_200)
        let model = DeclaringModel(base: mock, writesFreeText: writesFreeText, secret: nil)
        var state = try shippedPack().initialState
        var world = state.world
        world.npcs["mira"]?.contextPolicy = .summary
        state = GameState(world: world, player: state.player)
        let game = Game(state: state, models: { _, _ in model })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        for turn in 1...60 { await game.perform("Tell me about the weather, turn \(turn).", output: screen.record) }

        #expect(!screen.all.contains { if case .problem = $0 { true } else { false } })
        #expect(await game.conversations["mira"]?.trims ?? 0 > 0, "the conversation was never trimmed")
        let askedForNotes = mock.requests.contains { request in
            request.transcript.instructions?.segments.map(\.description).joined().contains("You keep notes") ?? false
        }
        #expect(askedForNotes == writesFreeText)
        let instructions = try #require(await game.session(of: "mira")?.transcript.instructions)
        #expect(instructions.segments.map(\.description).joined().contains("Earlier in this conversation:"))
    }
}
