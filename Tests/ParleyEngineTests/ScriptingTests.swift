import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ParleyJSON
import SaveGames
import ScriptedModel
import Testing

@testable import ParleyEngine
@testable import ParleyHost

/// The shipped pack's files, to change in memory.
func shippedFiles() throws -> [String: String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Content")
    var files: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
        let relative = String(url.path.dropFirst(root.path.count + 1))
        guard url.pathExtension == "json", !relative.hasPrefix("schema/"), !relative.hasPrefix("tests/") else {
            continue
        }
        files[relative] = try String(contentsOf: url, encoding: .utf8)
    }
    return files
}

/// The shipped pack with an NPC's file changed.
func pack(changing npc: String, _ change: (inout JSONObject) -> Void) throws -> ContentPack {
    var files = try shippedFiles()
    let text = try #require(files["npcs/\(npc).json"])
    var object = try #require(try JSONValue(parsing: text).objectValue)
    change(&object)
    files["npcs/\(npc).json"] = JSONValue.object(object).jsonString(.prettyPrinted)
    return try ContentPack.load(files: files).get()
}

@Suite struct ScriptingTests {
    static let scripted: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }

    @Test func aBeatIsSaidVerbatimAndItsEffectsGoThroughTheRules() async throws {
        let pack = try shippedPack()
        var state = pack.initialState
        var player = state.player
        player.location = "curio_house"
        player.inventory.add("moonpetal_locket")
        state = GameState(world: state.world, player: player)
        let game = Game(state: state, models: Self.scripted)
        let screen = Screen()
        await game.perform("talk to aurelio", output: screen.record)
        let before = await game.state
        await game.perform("give locket", output: screen.record)
        let after = await game.state
        // The verbatim line, as the NPC's response entry.
        let beat = try #require(pack.world.npcs["aurelio"]?.beats.first { $0.id == "locket_home" })
        let line = try #require(beat.lines.first).replacingOccurrences(of: "{player}", with: "Traveller")
        #expect(screen.text.contains("Aurelio Finch: \(line)"))
        let transcript = try #require(await game.session(of: "aurelio")?.transcript)
        guard case .response(let response)? = transcript.last else { Issue.record("no response"); return }
        #expect(response.assetIDs == ["beat"])
        #expect(response.segments.map(\.description) == [line])
        // Its effects: the quest, a flag, the attitude, and the compass given through the world's rules.
        #expect(after.stage(of: "locket") == "returned")
        #expect(after.flags.contains("locket_returned"))
        #expect(after.story.attitude(of: "aurelio") == 50)
        #expect(after.player.inventory.contains("brass_compass"))
        #expect(after.totalGold == before.totalGold)
        #expect(after.itemTotals == before.itemTotals)
        // Recorded, so replays keep the conversation whole.
        #expect(await game.recordings.contains { $0.modelID == TurnRecording.beatModelID })
    }

    @Test func beatsWorkWithAServerModelToo() async throws {
        let pack = try pack(changing: "mira") { mira in
            mira["beats"] = [
                ["id": "hello", "on": "firstTalk", "mode": "before", "lines": ["Welcome to Mira's stall!"]],
                [
                    "id": "thanks", "on": "tradeAccepted", "mode": "instead", "lines": ["A pleasure, {player}!"],
                    "effects": [["set": "bought_from_mira"]],
                ],
            ]
        }
        let model = MockLanguageModel(replies: [
            .text("What can I do for you?"),
            .toolCall("offerTrade", arguments: #"{"action":"sell","item":"candle","quantity":1,"price":2}"#),
            .text("One candle, two gold."),
        ])
        let game = Game(state: pack.initialState, models: { _, _ in model })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        // "before": the line first, then the model's answer, in one response entry.
        #expect(screen.text == "Mira Quickcoin: Welcome to Mira's stall!\nMira Quickcoin: What can I do for you?")
        let transcript = try #require(await game.session(of: "mira")?.transcript)
        guard case .response(let response)? = transcript.last else { Issue.record("no response"); return }
        #expect(response.segments.map(\.description) == ["Welcome to Mira's stall!", "What can I do for you?"])
        await game.perform("a candle please", output: screen.record)
        screen.clear()
        await game.perform("accept", output: screen.record)
        // "instead": the model is not asked; its next request sees the line as said.
        #expect(model.requests.count == 3)
        #expect(screen.text.hasSuffix("Mira Quickcoin: A pleasure, Traveller!"))
        #expect(await game.state.flags.contains("bought_from_mira"))
    }

    @Test func knowledgeJoinsTheInstructionsOnlyWhenItHolds() async throws {
        let model = MockLanguageModel { _ in .text("Halt.") }
        let game = Game(state: try shippedPack().initialState, models: { _, _ in model })
        let screen = Screen()
        await game.perform("n", output: screen.record)
        await game.perform("talk to oona", output: screen.record)
        let knowledge = try #require(try shippedPack().world.npcs["oona"]?.knowledge.first { $0.id == "mill_report" })
        var instructions = try #require(model.requests.last?.transcript.instructions).segments.map(\.description)
            .joined()
        #expect(!instructions.contains(knowledge.text))
        // The quest moves on (as Aurelio's plea would move it): now Oona knows.
        var state = await game.state
        try state.apply(.advancedQuest(quest: "locket", to: "asked"))
        let later = Game(state: state, models: { _, _ in model })
        await later.perform("talk to oona", output: screen.record)
        instructions = try #require(model.requests.last?.transcript.instructions).segments.map(\.description).joined()
        #expect(instructions.contains(knowledge.text))
    }

    @Test func ruleEffectsChangeTheStoryThroughTheRules() async throws {
        let game = Game(state: try shippedPack().initialState, models: Self.scripted)
        let screen = Screen()
        await game.perform("s", output: screen.record)
        await game.perform("talk to pip", output: screen.record)
        #expect(await game.state.story.attitude(of: "pip") == 0)
        await game.perform("give bread to pip", output: screen.record)
        #expect(await game.state.story.attitude(of: "pip") >= 10)
        screen.clear()
        await game.perform("what do you know about the mill?", output: screen.record)
        #expect(screen.text.contains("glint"))
    }

    @Test func effectsThatBreakTheRulesAreRefusedAndChangeNothing() async throws {
        let pack = try pack(changing: "mira") { mira in
            mira["beats"] = [
                [
                    "id": "too_generous", "on": "firstTalk", "mode": "instead", "lines": ["Have it all!"],
                    "effects": [
                        ["give": "silver_sword"], ["take": "moonpetal_locket"], ["giveGold": 1_000_000],
                        ["set": "greeted"],
                    ],
                ]
            ]
        }
        let game = Game(state: pack.initialState, models: Self.scripted)
        let before = await game.state
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        let after = await game.state
        #expect(screen.text.contains("Have it all!"))
        #expect(after.player.inventory == before.player.inventory)
        #expect(after.player.gold == before.player.gold)
        #expect(after.totalGold == before.totalGold)
        #expect(after.itemTotals == before.itemTotals)
        #expect(after.flags.contains("greeted"))  // the valid effect still applies
    }

    @Test func reloadKeepsTheGameAndUsesTheNewContent() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-reload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        try FileManager.default.copyItem(
            at: root.appendingPathComponent("Content"), to: folder.appendingPathComponent("Content"))
        let content = folder.appendingPathComponent("Content")
        let pack = try ContentPack.load(from: content).get()
        let host = GameHost(
            pack: pack, models: Self.scripted, store: SaveGameStore(folder: folder.appendingPathComponent("saves")),
            contentDirectory: content)
        let screen = Screen()
        for line in ["take apple", "talk to mira", "how much is the lantern?"] {
            await host.perform(line, output: screen.record)
        }
        let mira = content.appendingPathComponent("npcs/mira.json")
        let text = try String(contentsOf: mira, encoding: .utf8)
        // Both price variants change, so whichever the seed picks shows the new content.
        let edited = text.replacingOccurrences(of: "cheap at that", with: "a bargain, that")
            .replacingOccurrences(of: "Well, that's what I'm asking", with: "Well, a bargain, that")
        try Data(edited.utf8).write(to: mira)
        screen.clear()
        await host.perform("reload", output: screen.record)
        #expect(screen.text.hasPrefix("Reloaded"))
        // The game goes on: the apple, the conversation, the partner.
        #expect(await host.game.state.player.inventory.contains("apple"))
        #expect(await host.game.partner == "mira")
        screen.clear()
        await host.perform("how much is the lantern?", output: screen.record)
        #expect(screen.text.contains("a bargain, that"))
        #expect(await host.game.session(of: "mira")?.transcript.description.contains("cheap at that") == true)
        // A broken pack is refused and the game goes on.
        try Data("{ not json".utf8).write(to: mira)
        screen.clear()
        await host.perform("reload", output: screen.record)
        #expect(screen.text.contains("has errors, so the game goes on with the old one"))
        await host.perform("how much is the lantern?", output: screen.record)
        #expect(screen.text.contains("a bargain, that"))
    }

    /// Recordings keep the story with the rest of the state, so a replay sees the flags and quests of its turn.
    @Test func theRecordedStateKeepsTheStory() throws {
        let pack = try shippedPack()
        let story = StoryState(
            flags: ["locket_returned"], counters: ["goose_visits": 3], attitudes: ["aurelio": 50],
            quests: ["locket": "returned"], beats: ["aurelio": ["locket_home": 1]])
        let state = GameState(world: pack.initialState.world, player: pack.initialState.player, story: story)
        let recorded = try DynamicState(jsonValue: DynamicState(state).jsonValue)
        #expect(recorded.story == story)
        #expect(recorded.applied(to: pack.initialState).story == story)
    }

    /// The story is written with sorted keys, byte for byte what Foundation's sorted-keys encoder wrote before, so
    /// recordings in existing saves keep their bytes; a story that is not a story is an error, not an empty story.
    @Test func theRecordedStoryKeepsItsBytesAndRejectsGarbage() throws {
        let story = StoryState(
            flags: ["b", "a"], counters: ["visits10": 1, "visits2": 2, "Zed": 3],
            attitudes: ["mira": -5, "aurelio": 50],
            quests: ["locket": "returned"], beats: ["aurelio": ["locket_home": 1, "greeting": 2]])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let before = try JSONValue(parsing: Array(encoder.encode(story)))
        #expect(DynamicState.json(story).jsonString() == before.jsonString())
        let pack = try shippedPack()
        var json = DynamicState(
            GameState(world: pack.initialState.world, player: pack.initialState.player, story: story)
        ).jsonValue
        #expect(try DynamicState(jsonValue: json).story == story)
        json = ["story": ["flags": "not a list"]]
        #expect {
            try DynamicState(jsonValue: json)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["flags"]
        }
    }

    /// The game reads conversation facts incrementally; they equal the facts read from the whole history.
    @Test func incrementalConversationFactsMatchAFullReading() async throws {
        let pack = try shippedPack()
        let game = Game(state: pack.initialState, models: Self.scripted)
        let lines = [
            "talk to mira", "hello", "how much is the lantern?", "tell me about the mill", "thanks",
            "what do you sell?", "nice weather", "how much is the rope?",
        ]
        for line in lines {
            await game.perform(line) { _ in }
            let history = try #require(await game.conversations["mira"]?.history)
            for next in ["and the candle?", "hm", nil] {
                let prompt = next.map { Prompt($0) }
                let incremental = await game.conversationFacts(of: "mira", saying: prompt)
                let full = Game.conversationFacts(history: history, saying: prompt, npc: "mira", world: pack.world)
                #expect(incremental == full, "after \(line), saying \(next ?? "nothing")")
            }
        }
        let facts = await game.conversationFacts(of: "mira", saying: nil)
        #expect(facts.turns == lines.count - 1)
        // "the rope" names no item in full (it is the Coil of Rope), but Mira looked the rope up: that is the topic,
        // so a question about the past names the item the look-up did.
        #expect(facts.lastTopic == "rope")
        #expect(!facts.isFirstMeeting)
    }
}

/// What `history` shows of a beat said before the model's reply.
@Suite struct BeatHistoryTests {
    @Test func historyKeepsTheSpaceBetweenABeatLineAndTheReply() async throws {
        let pack = try pack(changing: "mira") { mira in
            mira["beats"] = [["id": "hail", "on": "firstTalk", "mode": "before", "lines": ["Well met!"]]]
        }
        let game = Game(state: pack.initialState, models: ScriptingTests.scripted)
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        screen.clear()
        await game.perform("history", output: screen.record)
        #expect(screen.text.contains("Mira Quickcoin: Well met! "), "\(screen.text)")
        #expect(!screen.text.contains("Well met!H"), "\(screen.text)")
    }
}

/// A `firstTalk` beat belongs to the first meeting of the game, not of the process.
@Suite struct FirstTalkTests {
    @Test(arguments: ["load", "reload"])
    func aFirstTalkBeatDoesNotFireAgainAfter(_ how: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-first-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let content = root.appendingPathComponent("Content")
        let pack = try ContentPack.load(from: content).get()
        let beat = try #require(pack.world.npcs["aurelio"]?.beats.first { $0.id == "plea" }?.lines.first)
        let opening = String(beat.prefix(30))
        let host = GameHost(
            pack: pack, models: ScriptingTests.scripted, store: SaveGameStore(folder: folder),
            contentDirectory: content)
        let screen = Screen()
        for line in ["s", "e", "talk to aurelio", "bye", "save mine"] {
            await host.perform(line, output: screen.record)
        }
        #expect(screen.text.contains(opening), "\(screen.text)")
        screen.clear()
        await host.perform(how == "load" ? "load mine" : "reload", output: screen.record)
        await host.perform("talk to aurelio", output: screen.record)
        #expect(!screen.text.contains(opening), "the first meeting's beat fired again after \(how): \(screen.text)")
    }
}

/// What NPCs say follows the story.
@Suite struct StoryGreetingTests {
    @Test(arguments: 0..<6)
    func aurelioDoesNotAskForHisLocketOnceItIsBack(seed: UInt64) async throws {
        let pack = try shippedPack()
        var player = pack.initialState.player
        player.location = "curio_house"
        player.inventory.add("moonpetal_locket")
        let game = Game(
            state: GameState(world: pack.world, player: player),
            models: { npc, world in ScriptedModel(npc: npc, world: world, seed: seed) })
        let screen = Screen()
        for line in ["talk to aurelio", "give locket", "bye"] { await game.perform(line, output: screen.record) }
        #expect(await game.state.stage(of: "locket") == "returned")
        screen.clear()
        for line in ["talk to aurelio", "bye", "talk to aurelio"] { await game.perform(line, output: screen.record) }
        #expect(!screen.text.contains("Of my locket?"), "\(screen.text)")
    }
}
