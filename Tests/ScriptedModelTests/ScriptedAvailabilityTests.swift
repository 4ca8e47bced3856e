import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// The embedded model needs nothing outside the process: always available, its window known without waiting, and
/// its answers carry usage by its token rule.
@Suite struct ScriptedAvailabilityTests {
    @Test func itIsAlwaysAvailableAndKnowsItsContextSize() async throws {
        let pack = try HandBuiltPack.pack()
        let model = try ScriptedModel(npc: #require(pack.world.npcs["tam"]), world: pack.world, contextSize: 2048)
        #expect(model.availability == .available && model.isAvailable)
        #expect(model.knownContextSize == 2048)
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(to: "hi")
        #expect(response.usage.input.totalTokenCount > 0)
        #expect(response.usage.output.totalTokenCount == ScriptedModel.tokens(inText: response.content))
        #expect(session.usage == response.usage)
    }
}
