import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// The model streams its reply word by word, like a server; the chunks make up exactly the whole reply.
@Suite struct ScriptedStreamingTests {
    func request(_ line: String, npc: NPCID = "mira") throws -> (ScriptedModel, GenerationRequest) {
        let pack = try Packs.shipped()
        let model = ScriptedModel(npc: try #require(pack.world.npcs[npc]), world: pack.world, seed: 5)
        let transcript = Transcript(entries: [.prompt(Transcript.Prompt(segments: [.text(.init(content: line))]))])
        return (model, GenerationRequest(transcript: transcript))
    }

    @Test(arguments: ["hello", "who are you?", "tell me about the mill", "blorp"])
    func theChunksAreTheWholeReplyWordByWord(line: String) async throws {
        let (model, request) = try request(line)
        let generation = try await model.generate(request)
        guard case .text(let whole) = generation.output else {
            Issue.record("expected text")
            return
        }
        var chunks: [String] = []
        var usage: GenerationUsage?
        var assetIDs: [String] = []
        for try await update in model.streamGeneration(request) {
            switch update {
            case .text(let chunk): chunks.append(chunk)
            case .usage(let reported): usage = reported
            case .assetIDs(let ids): assetIDs += ids
            default: Issue.record("unexpected update \(update)")
            }
        }
        #expect(chunks.joined() == whole)
        // The stream names the answering rule as `generate` does.
        #expect(!assetIDs.isEmpty && assetIDs == generation.assetIDs)
        #expect(chunks.count == whole.split(separator: " ").count)
        #expect(chunks.dropLast().allSatisfy { $0.hasSuffix(" ") && !$0.hasPrefix(" ") })
        #expect(usage?.completionTokens == ScriptedModel.tokens(inText: whole))
    }

    @Test func toolCallsComeAtOnce() async throws {
        let visit = try Packs.visit("mira")
        let pack = try Packs.shipped()
        let model = ScriptedModel(npc: try #require(pack.world.npcs["mira"]), world: pack.world)
        let transcript = Transcript(entries: [
            .prompt(Transcript.Prompt(segments: [.text(.init(content: "what do you sell?"))]))
        ])
        let request = GenerationRequest(
            transcript: transcript, tools: visit.tools.map { Transcript.ToolDefinition(tool: $0) })
        var updates: [GenerationUpdate] = []
        for try await update in model.streamGeneration(request) { updates.append(update) }
        guard case .toolCalls(let calls) = updates.first else {
            Issue.record("expected tool calls first: \(updates)")
            return
        }
        #expect(calls.map(\.description) == [#"lookUpStock({})"#])
        #expect(updates.count == 2)
    }

    @Test func aStreamedSessionTurnEqualsTheAwaitedOne() async throws {
        let streamed = try Packs.visit("hesper").session(seed: 9)
        let awaited = try Packs.visit("hesper").session(seed: 9)
        for line in ["hello", "what do you sell?", "any gossip?"] {
            let whole = try await awaited.turn(line).reply
            let stream = streamed.streamResponse(to: line)
            var snapshots: [String] = []
            for try await snapshot in stream { snapshots.append(snapshot.content) }
            let response = try await stream.collect()
            #expect(response.content == whole)
            #expect(snapshots.last == whole)
        }
        #expect(streamed.transcript.map(\.description) == awaited.transcript.map(\.description))
    }
}
