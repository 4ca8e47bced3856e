import GameWorld
import HTTPTestSupport
import OpenAICompatible
import ParleyEngine
import ParleyModels
import Testing

/// A server plays each NPC within the NPC's own sentence budget (`"voice": {"sentences": N}` in its file), and within
/// the settings' budget when its file sets none: in grounded mode the game cuts the voiced line (`VoicedModel`'s
/// budget), in free mode the backend cuts the server's reply (`maximumSentences`).
@Suite struct SentenceBudgetTests {
    /// A loopback server that answers the backend's first look (`/v1/models`) as a plain OpenAI-compatible server.
    static func server() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            request.path.hasSuffix("/models")
                ? .json(#"{"data":[{"id":"tiny"}]}"#) : .text("not found", status: 404)
        }
    }

    static let terse = NPC(
        id: "guard", name: "Guard", persona: "A guard.", location: "gate", voice: NPCVoice(sentences: 1))
    static let plain = NPC(id: "mira", name: "Mira", persona: "A merchant.", location: "gate")
    static let world = World(
        id: "w", title: "W", locations: [Location(id: "gate", name: "Gate", description: "A gate.")], items: [],
        npcs: [terse, plain], goal: GameGoal(description: "Be.", requirements: []))

    @Test(arguments: [VoiceMode.grounded, .free])
    func eachNPCIsVoicedWithinItsOwnBudget(mode: VoiceMode) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let choice = try ModelChoice.parse(server.baseURL + "/v1")
        let provider = try await choice.makeProvider(voice: VoiceSettings(mode: mode, sentenceBudget: 4))
        for (npc, budget) in [(Self.terse, 1), (Self.plain, 4)] {
            let model = try #require(try await provider(npc, Self.world) as? VoicedModel)
            #expect(model.sentenceBudget == budget, "\(npc.id)")
            let backend = try #require(model.voice as? OpenAICompatibleLanguageModel)
            #expect(backend.configuration.maximumSentences == (mode == .free ? budget : nil), "\(npc.id)")
        }
        // The NPCs share the one connection: the server was asked about itself once.
        #expect(server.requests.filter { $0.path.hasSuffix("/models") }.count == 1)
    }

    @Test func theSettingsBudgetIsTheDefaultOfNPCsThatSetNone() {
        let settings = VoiceSettings(sentenceBudget: 2)
        #expect(settings.sentenceBudget(of: Self.plain) == 2)
        #expect(settings.sentenceBudget(of: Self.terse) == 1)
        #expect(VoiceSettings().sentenceBudget(of: Self.plain) == VoicedModel.defaultSentenceBudget)
    }
}
