import ContentPacks
import GameWorld
import LanguageModels
import NPCContract
import ParleyEngine
import ScriptedModel
import Testing

/// The scripted model reads what the engine's own tools answer, through the contract: every output of every tool,
/// in every outcome, reads back and writes out again byte for byte, and the model's replies use it.
@Suite struct RealToolsTests {
    /// Visits that make the engine's tools answer in every way they can.
    static let visits: [(npc: NPCID, gold: Int, finds: [ItemID], lines: [String])] = [
        ("mira", 40, [], ["What do you sell?", "How much is the unicorn horn?", "I'll take the lantern"]),
        ("brannoc", 14, [], ["What would you pay for my things?", "Sell my rusty sword"]),
        ("hesper", 14, [], ["I'm starving"]),
        ("aurelio", 14, [], ["Here is your locket"]),
        ("aurelio", 14, ["moonpetal_locket"], ["I found your locket! Here, it's yours."]),
    ]

    @Test func everyOutputOfTheEnginesToolsReadsBackThroughTheContract() async throws {
        var seen: Set<String> = []
        for plan in Self.visits {
            let visit = try Packs.visit(plan.npc, gold: plan.gold)
            for item in plan.finds { try visit.playerFinds(item) }
            let session = try visit.session()
            for line in plan.lines { _ = try await session.turn(line) }
            var calls: [String: Transcript.ToolCall] = [:]
            for entry in session.transcript {
                if case .toolCalls(let made) = entry { for call in made { calls[call.id] = call } }
                guard case .toolOutput(let output) = entry, case .structure(let segment)? = output.segments.first else {
                    continue
                }
                let read = try #require(NPCToolOutput(output), "\(output)")
                #expect(read.generatedContent.jsonString == segment.content.jsonString)
                let call = try #require(calls[output.id].flatMap(NPCToolCall.init), "the call of \(output.id)")
                #expect(call.arguments.jsonString == calls[output.id]?.arguments.jsonString)
                switch read {
                case .stock(let report): seen.insert(report.missing == nil ? "stock" : "missing")
                case .player: seen.insert("player")
                case .action(let result): seen.insert("\(call.tool) \(result.status)")
                }
            }
        }
        #expect(
            seen == [
                "stock", "missing", "player", "offerTrade pending", "giveItem given", "acceptGift refused",
                "acceptGift accepted",
            ])
    }

    @Test func aRefusedOfferIsAnsweredWithTheGuardsOwnReasons() async throws {
        let dialogue = """
            { "rules": [
                { "id": "crate", "when": { "keywords": ["crate"] },
                  "calls": [{ "tool": "offerTrade", "arguments": { "action": "sell", "item": "nail", "quantity": 500, "price": 1 } }],
                  "outcomes": { "pending": ["Deal."], "refused": ["No: {reasons}"] } },
                { "id": "anything", "when": {}, "replies": ["Tam shrugs."] } ] }
            """
        let pack = try ContentPack.load(files: HandBuiltPack.files(dialogue: dialogue)).get()
        let visit = try NPCVisit(pack.initialState, npc: "tam")
        let session = try visit.session()
        let turn = try await session.turn("I love your crate")
        guard
            case .toolOutput(let output)? = turn.entries.first(where: {
                if case .toolOutput = $0 { true } else { false }
            }),
            case .action(let result)? = NPCToolOutput(output)
        else {
            Issue.record("no offerTrade output: \(turn.entries)"); return
        }
        #expect(result.status == .refused)
        #expect(result.reasons.count >= 2, "\(result.reasons)")
        // Each reason is said by Tam, in the first person, from the reason's kind and values; not the game's sentence
        // about "Tam the Tinker".
        #expect(turn.reply == "No: I've only 20 Iron Nail left. I can't go below 500 gold.")
        #expect(!turn.reply.contains("Tam the Tinker"))
        #expect(visit.pending == nil)
    }
}
