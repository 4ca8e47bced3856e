import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// The model's identity, window and token rule.
@Suite struct ModelIdentityTests {
    @Test func itIsTheScriptedModelWithAVersionFromItsRules() throws {
        let pack = try Packs.shipped()
        let mira = try #require(pack.world.npcs["mira"])
        let model = ScriptedModel(npc: mira, world: pack.world)
        #expect(model.id == "scripted")
        #expect(model.version.hasPrefix("\(ScriptedModel.formatVersion)."))
        #expect(model.version.count == 10)
        #expect(ScriptedModel(npc: mira, world: pack.world, seed: 9).version == model.version, "the seed is not a rule")
        var changed = mira
        changed.dialogue.rules[0].replies[0] += "!"
        #expect(ScriptedModel(npc: changed, world: pack.world).version != model.version)
        let brannoc = try #require(ScriptedModel(npcID: "brannoc", world: pack.world))
        #expect(brannoc.version != model.version)
        #expect(ScriptedModel(npcID: "nobody", world: pack.world) == nil)
    }

    @Test func itHasALargeWindowAndCanCallToolsAndFollowSchemas() async throws {
        let model = try #require(ScriptedModel(npcID: "mira", world: Packs.shipped().world))
        #expect(model.contextSize == 32_768)
        #expect(model.capabilities.contains(.toolCalling))
        #expect(model.capabilities.contains(.guidedGeneration))
    }

    @Test(arguments: [("", 0), ("a", 1), ("abcd", 1), ("abcde", 2), ("Grüße", 2)])
    func textCostsOneTokenPerFourBytes(text: String, tokens: Int) {
        #expect(ScriptedModel.tokens(inText: text) == tokens)
    }

    @Test func anEntryCostsFourPlusItsSegments() async throws {
        let model = try #require(ScriptedModel(npcID: "mira", world: Packs.shipped().world))
        let prompt = Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "12345678"))]))
        let calls = Transcript.Entry.toolCalls(
            Transcript.ToolCalls([
                Transcript.ToolCall(id: "1", toolName: "abcd", arguments: GeneratedContent(properties: [:]))
            ]))
        #expect(ScriptedModel.tokens(in: prompt) == 6)
        #expect(ScriptedModel.tokens(in: calls) == 4 + 2)
        #expect(try await model.tokenCount(for: [prompt, calls]) == 12)
    }

    /// Counts are remembered per entry, but an entry changed in place (same id, new text) is counted again.
    @Test func aRememberedCountFollowsAnEntryChangedInPlace() async throws {
        let model = try #require(ScriptedModel(npcID: "mira", world: Packs.shipped().world))
        var response = Transcript.Response(segments: [.text(.init(content: "1234"))])
        #expect(try await model.tokenCount(for: [.response(response)]) == 5)
        #expect(try await model.tokenCount(for: [.response(response)]) == 5)
        response.segments.insert(.text(.init(content: "A longer line said first.")), at: 0)
        #expect(try await model.tokenCount(for: [.response(response)]) == 5 + 7)
    }
}
