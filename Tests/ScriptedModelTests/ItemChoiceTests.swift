import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import Synchronization
import Testing

@testable import ScriptedModel

/// When words fit several items, the NPC's own stock decides, aliases and head words alike: "lamp" is an alias of
/// the Brass Lantern and the last word of the Oil Lamp. And a question about the past names the item the NPC looked
/// up, in the engine's game as in the model's transcript.
@Suite struct ItemChoiceTests {
    /// A yard with four traders: Ada sells both lights, Bo only the Oil Lamp, Cy only the lantern, Di only rope.
    static let pack: ContentPack = {
        var files: [String: String] = [
            "world.json": """
            { "id": "lamps", "title": "Lamps",
              "start": { "name": "Kit", "location": "yard", "gold": 80 },
              "locations": [{ "id": "yard", "name": "Yard", "description": "A yard.", "items": [{ "item": "rope" }] }],
              "goal": { "description": "Buy light.", "requirements": [{ "type": "playerHasItem", "item": "rope" }] } }
            """,
            "items.json": """
            { "items": [
              { "id": "lantern", "name": "Brass Lantern", "aliases": ["lamp"], "description": "A lantern.", "value": 20, "category": "tool" },
              { "id": "oil_lamp", "name": "Oil Lamp", "description": "A lamp.", "value": 8, "category": "tool" },
              { "id": "rope", "name": "Coil of Rope", "description": "Rope.", "value": 6, "category": "tool" } ] }
            """,
        ]
        for (id, stock) in [
            ("ada", ["lantern", "oil_lamp"]), ("bo", ["oil_lamp"]), ("cy", ["lantern"]), ("di", ["rope"]),
        ] {
            let items = stock.map { #"{ "item": "\#($0)" }"# }.joined(separator: ", ")
            files["npcs/\(id).json"] = """
                { "id": "\(id)", "name": "\(id.capitalized)", "persona": "A trader.", "location": "yard", "gold": 50,
                  "inventory": [\(items)], "trade": { "sells": ["tool"], "buys": ["tool"] } }
                """
        }
        return try! ContentPack.load(files: files).get()
    }()

    @Test(
        arguments: [
            ("ada", nil), ("bo", "oil_lamp"), ("cy", "lantern"), ("di", "lantern"),
        ] as [(NPCID, String?)])
    func theNPCsStockDecidesBetweenAnAliasAndAHeadWord(npc: NPCID, item: String?) async throws {
        let visit = try NPCVisit(Self.pack.initialState, npc: npc)
        let turn = try await visit.session().turn("how much is the lamp?")
        if let item {
            #expect(turn.calls == [#"lookUpStock({"item":"\#(item)"})"#], "\(turn.reply)")
        } else {
            // Ada sells both: she asks which, naming them.
            #expect(turn.calls.isEmpty)
            #expect(AskedActionTests.outcome(of: turn) == .ambiguous)
            #expect(turn.reply.contains("Brass Lantern") && turn.reply.contains("Oil Lamp"), "\(turn.reply)")
        }
    }

    @Test func sellingLetsThePlayersBelongingsDecide() async throws {
        let start = Self.pack.initialState
        var inventory = start.player.inventory
        inventory.add("oil_lamp", quantity: 1)
        let player = Player(name: "Kit", location: start.player.location, gold: 80, inventory: inventory)
        let visit = try NPCVisit(GameState(world: start.world, player: player), npc: "ada")
        _ = try await visit.session().turn("sell my lamp")
        #expect(visit.pending?.offer.playerGives.items.map(\.item) == ["oil_lamp"])
    }

    /// Speech the game showed.
    final class Heard: Sendable {
        private let outputs = Mutex<[GameOutput]>([])
        func record(_ output: GameOutput) { outputs.withLock { $0.append(output) } }
        var lastSpeech: String {
            outputs.withLock { outputs in
                var lines: [String] = []
                for output in outputs {
                    switch output {
                    case .speechBegan: lines.append("")
                    case .speech(let words):
                        if lines.isEmpty { lines.append(words) } else { lines[lines.count - 1] += words }
                    default: break
                    }
                }
                return lines.last ?? ""
            }
        }
    }

    @Test(arguments: [("bo", "Oil Lamp"), ("cy", "Brass Lantern")])
    func recallNamesTheItemTheLookUpDid(npc: String, item: String) async throws {
        let game = Game(state: Self.pack.initialState) { npc, world in ScriptedModel(npc: npc, world: world) }
        let heard = Heard()
        await game.perform(.talk(npc.capitalized), output: heard.record)
        await game.perform(.say("how much is the lamp?"), output: heard.record)
        #expect(heard.lastSpeech.contains(item), "\(heard.lastSpeech)")
        await game.perform(.say("what did I ask you about?"), output: heard.record)
        #expect(heard.lastSpeech.contains(item), "\(heard.lastSpeech)")
    }
}
