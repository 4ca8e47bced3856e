import GameWorld
import LanguageModels
import LanguageModelsTesting
import ScriptedModel
import Testing

@testable import ParleyEngine

/// A voice and a planner are a capability a model declares (`LanguageModel.voicing`), not a type the game looks for:
/// the game voices the turns of any model that declares a pair, and of no other.
@Suite(.timeLimit(.minutes(10))) struct ModelVoicingTests {
    /// A model that forwards every step to a `VoicedModel`, and declares its voice and planner only when `declares`.
    struct ForwardingModel: LanguageModel {
        let inner: VoicedModel
        let declares: Bool

        var id: String { inner.id }
        var version: String { inner.version }
        var capabilities: LanguageModelCapabilities { inner.capabilities }
        var contextSize: Int {
            get async throws { try await inner.contextSize }
        }
        var knownContextSize: Int? { inner.knownContextSize }
        var writesFreeText: Bool { inner.writesFreeText }
        var voicing: ModelVoicing? { declares ? inner.voicing : nil }

        func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
            try await inner.tokenCount(for: entries)
        }
        func tokenCount(for schema: GenerationSchema) async throws -> Int { try await inner.tokenCount(for: schema) }
        func generate(_ request: GenerationRequest) async throws -> Generation { try await inner.generate(request) }
        func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Error> {
            inner.streamGeneration(request)
        }
    }

    static func game(voice: MockLanguageModel, declares: Bool) throws -> Game {
        let pack = try shippedPack()
        return Game(state: pack.initialState) { npc, world in
            ForwardingModel(
                inner: VoicedModel(
                    voice: voice, planner: ScriptedModel(npc: npc, world: world, seed: 1), mode: .grounded,
                    firstWordsDeadline: .seconds(60)),
                declares: declares)
        }
    }

    @Test func aModelThatDeclaresAVoiceAndAPlannerIsVoicedWhateverItsType() async throws {
        let voice = VoicingTests.echoVoice()
        let game = try Self.game(voice: voice, declares: true)
        let screen = await VoicingTests.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        let planned = try #require(voicing.planned)
        #expect(voicing.outcome == .voiced)
        #expect(voicing.mode == .grounded)
        #expect(voicing.planner.hasPrefix("scripted@"))
        #expect(planned.contains("25 gold"))
        #expect(screen.text == "Mira Quickcoin: Well now, " + planned)
        #expect(turn.annotations[.voicing] == "voiced")
        #expect(!voice.requests.isEmpty)
    }

    @Test func aModelThatDeclaresNoneIsNotVoicedEvenWhenItWrapsAVoicedModel() async throws {
        let voice = VoicingTests.echoVoice()
        let game = try Self.game(voice: voice, declares: false)
        let screen = await VoicingTests.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        #expect(turn.recording.voicing == nil)
        #expect(turn.annotations[.voicing] == nil)
        // The planner's line, as the session's acting model said it; the voice was never asked.
        #expect(screen.text.hasPrefix("Mira Quickcoin: "))
        #expect(screen.text.contains("25 gold"), "\(screen.text)")
        #expect(!screen.text.contains("Well now"))
        #expect(voice.requests.isEmpty)
    }

    @Test(arguments: [VoiceMode.grounded, .free])
    func aVoicedModelDeclaresItsVoicePlannerAndSettings(_ mode: VoiceMode) throws {
        let voice = MockLanguageModel(replies: [], id: "server", version: "2")
        let planner = MockLanguageModel(replies: [], id: "planner", version: "5")
        let model = VoicedModel(
            voice: voice, planner: planner, mode: mode, firstWordsDeadline: .milliseconds(750), sentenceBudget: 2)
        let voicing = try #require(model.voicing)
        #expect(voicing.voice.id == "server")
        #expect(voicing.planner.id == "planner")
        #expect(voicing.mode == mode)
        #expect(voicing.firstWordsDeadline == .milliseconds(750))
        #expect(voicing.sentenceBudget == 2)
        #expect(voicing.plannerName == "planner@5")
        #expect(voicing.acting.id == (mode == .grounded ? "planner" : "server"))
        #expect(model.plannerName == voicing.plannerName)
        #expect(model.acting.id == voicing.acting.id)
    }

    @Test func settingsBelowTheirLeastAreTheLeast() throws {
        let voicing = ModelVoicing(
            voice: MockLanguageModel(replies: []), planner: MockLanguageModel(replies: []), mode: .free,
            firstWordsDeadline: .zero, sentenceBudget: 0)
        #expect(voicing.firstWordsDeadline == .milliseconds(1))
        #expect(voicing.sentenceBudget == 1)
        let model = VoicedModel(
            voice: MockLanguageModel(replies: []), planner: MockLanguageModel(replies: []),
            firstWordsDeadline: .seconds(-3), sentenceBudget: -1)
        #expect(model.firstWordsDeadline == .milliseconds(1))
        #expect(model.sentenceBudget == 1)
        #expect(model.mode == .grounded)
    }

    @Test func aModelThatIsOneModelDeclaresNoVoicing() throws {
        let world = try shippedPack().initialState.world
        let mira = try #require(world.npcs["mira"])
        #expect(MockLanguageModel(replies: []).voicing == nil)
        #expect(ScriptedModel(npc: mira, world: world, seed: 1).voicing == nil)
    }
}
