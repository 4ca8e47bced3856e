import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// Hundreds of random player lines and events, from a seed: the model never crashes, never loops, only calls the
/// tools it was given, and every turn ends in a response.
@Suite struct RandomLinesTests {
    static let fragments = [
        "hello", "hi", "bye", "thanks", "what do you sell", "how much", "is the", "I'll take", "sell my", "buy",
        "would you take", "too expensive", "cheaper", "for", "gold", "please", "yes", "no", "who are you", "news",
        "the mill", "cellar", "locket", "it", "that one", "here take this", "give me", "my", "your", "some", "two",
        "twenty", "a dozen", "100", "0", "-5", "999999999999", "?", "!", "...", "'s", "don't", "I'm hungry", "rumours",
        "how are you", "lantern", "sword", "bread", "trout", "scales", "owl", "unicorn", "the the the", "", "  ",
        "ü", "🐟", "gold gold", "take", "sell", "sell me", "for you", "a gift", "deal", "accept", "decline",
    ]

    /// A random line of up to seven fragments.
    static func line(_ random: inout SplitMix64) -> String {
        (0..<random.next(in: 0...7)).map { _ in random.pick(fragments) }.joined(
            separator: random.chance(30) ? ", " : " ")
    }

    @Test(arguments: ["mira", "brannoc", "hesper", "oona", "aurelio", "pip"] as [NPCID])
    func randomLinesAlwaysGetAResponse(npc: NPCID) async throws {
        var random = SplitMix64(seed: 0x5EED ^ UInt64(npc.rawValue.utf8.count))
        let visit = try Packs.visit(npc, gold: 60)
        let offered = npc == "oona" ? visit.guardTools : visit.tools
        let session = try visit.session(seed: random.next(), tools: offered)
        let names = Set(offered.map(\.name))
        for step in 0..<150 {
            let prompt: Prompt
            switch random.next(below: 20) {
            case 0: prompt = visit.arrived
            case 1: prompt = visit.left
            // An offer a later gift made stale (the player gave away what it sells) cannot be applied; the game's
            // `accept` refuses it, and here the player declines it instead.
            case 2 where visit.pending != nil: prompt = try (try? visit.acceptPending()) ?? visit.declinePending()
            case 3 where visit.pending != nil: prompt = try visit.declinePending()
            case 4 where visit.game.player.inventory.contains("bread"): prompt = try visit.give("bread")
            default: prompt = Prompt(Self.line(&random))
            }
            let turn = try await session.turn(prompt)
            #expect(!turn.reply.isEmpty, "step \(step): \(prompt)")
            #expect(turn.calls.count <= 3, "step \(step): \(turn.calls)")
            for call in turn.calls {
                #expect(names.contains(String(call.prefix { $0 != "(" })), "step \(step): \(call)")
            }
        }
        #expect(session.transcript.count > 300)
    }

    @Test func randomTranscriptsBuiltByHandNeverCrashTheModel() async throws {
        var random = SplitMix64(seed: 11)
        let pack = try Packs.shipped()
        let model = ScriptedModel(npc: try #require(pack.world.npcs["mira"]), world: pack.world, seed: 1)
        let tools = try Packs.visit("mira").tools.map { Transcript.ToolDefinition(tool: $0) }
        let junk: [GeneratedContent] = [
            GeneratedContent(properties: ["items": "not an array", "missing": 3]),
            GeneratedContent(properties: ["status": "pending"]),
            GeneratedContent(properties: ["status": "refused", "reasons": GeneratedContent(elements: [1, 2])]),
            GeneratedContent(properties: ["inventory": GeneratedContent(elements: ["x"]), "gold": "lots"]),
            GeneratedContent("just text"),
        ]
        for _ in 0..<300 {
            var entries: [Transcript.Entry] = []
            for index in 0..<random.next(in: 0...8) {
                switch random.next(below: 5) {
                case 0:
                    entries.append(
                        .prompt(Transcript.Prompt(segments: [.text(.init(content: RandomLinesTests.line(&random)))])))
                case 1:
                    entries.append(.response(Transcript.Response(segments: [.text(.init(content: "ok"))])))
                case 2:
                    let tool = random.pick([
                        "lookUpStock", "inspectPlayer", "offerTrade", "giveItem", "acceptGift", "x",
                    ])
                    entries.append(
                        .toolCalls(
                            Transcript.ToolCalls([
                                Transcript.ToolCall(id: "c\(index)", toolName: tool, arguments: random.pick(junk))
                            ])))
                    entries.append(
                        .toolOutput(
                            Transcript.ToolOutput(
                                id: "c\(index)", toolName: tool,
                                segments: [.structure(.init(source: tool, content: random.pick(junk)))])))
                case 3:
                    entries.append(
                        .prompt(
                            Transcript.Prompt(segments: [
                                .structure(
                                    .init(
                                        source: "GameEvent",
                                        content: GeneratedContent(properties: [
                                            "event": random.pick(["gave", "arrived", "left", "offerAccepted", "odd"]),
                                            "item": random.pick(["bread", "nothing", "moonpetal_locket"]),
                                        ])))
                            ])))
                default:
                    entries.append(
                        .toolOutput(Transcript.ToolOutput(id: "orphan", toolName: "offerTrade", segments: [])))
                }
            }
            let request = GenerationRequest(transcript: Transcript(entries: entries), tools: tools)
            _ = try await model.generate(request)
        }
    }
}
