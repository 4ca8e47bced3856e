import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// The same transcript, tools and seed always give the same entries; another seed may choose other variants.
@Suite struct DeterminismTests {
    static let script = [
        "hello", "what do you sell?", "how much is the lantern?", "I'll take the lantern", "would you take 21?",
        "too expensive", "tell me about the mill", "who are you?", "blorp", "bye",
    ]

    /// Plays the script and returns the transcript as readable text (entry ids are random UUIDs; the text is not).
    func play(_ npc: NPCID, seed: UInt64) async throws -> [String] {
        let visit = try Packs.visit(npc, gold: 40)
        let session = try visit.session(seed: seed)
        for line in Self.script { _ = try await session.turn(line) }
        return session.transcript.map(\.description)
    }

    @Test(arguments: ["mira", "brannoc", "pip"] as [NPCID])
    func theSameSeedGivesTheSameConversation(npc: NPCID) async throws {
        let first = try await play(npc, seed: 42)
        let second = try await play(npc, seed: 42)
        #expect(first == second)
        #expect(first.count > Self.script.count * 2)
    }

    @Test func theSameRequestGivesTheSameGeneration() async throws {
        let visit = try Packs.visit("mira", gold: 40)
        let session = try visit.session(seed: 3)
        _ = try await session.turn("I'll take the lantern")
        var transcript = session.transcript
        transcript.append(.prompt(Transcript.Prompt(segments: [.text(.init(content: "would you take 20?"))])))
        let request = GenerationRequest(
            transcript: transcript, tools: visit.tools.map { Transcript.ToolDefinition(tool: $0) })
        let model = try ScriptedModel(npc: #require(visit.game.world.npcs["mira"]), world: visit.game.world, seed: 3)
        let first = try await model.generate(request)
        let second = try await model.generate(request)
        #expect(first == second)
        guard case .toolCalls(let calls) = first.output else {
            Issue.record("expected tool calls, got \(first.output)")
            return
        }
        #expect(calls.map(\.id) == ["scripted-\(transcript.count)-1"])
    }

    @Test func otherSeedsChooseOtherVariants() async throws {
        var replies: Set<String> = []
        for seed in UInt64(0)..<16 {
            let reply = try await Packs.visit("mira").session(seed: seed).turn("hello").reply
            replies.insert(reply)
            #expect(try Packs.voice("mira").said(reply, "greet"))
        }
        #expect(replies.count == 3, "Mira's three greetings all come up: \(replies)")
    }

    @Test func variantsVaryWithinAConversation() async throws {
        let session = try Packs.visit("brannoc").session(seed: 1)
        var replies: [String] = []
        for _ in 0..<12 { replies.append(try await session.turn("blorp").reply) }
        #expect(Set(replies).count == 2, "both of Brannoc's fallbacks: \(Set(replies))")
    }
}
