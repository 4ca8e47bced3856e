import Foundation
import GameWorld
import ParleyJSON
import SaveGames
import ScriptedModel
import Testing

@testable import ParleyEngine
@testable import ParleyHost

/// The game's own state pushed into a game (`StatePatch`, `Game.apply(_:)`): read from JSON with every problem at its
/// path, checked as a save is, applied whole or not at all, seen by the NPCs' next turn and kept by the next autosave.
@Suite struct StatePatchTests {
    static func patch(_ json: String) throws -> StatePatch {
        try StatePatch(json: try JSONValue(parsing: Array(json.utf8)))
    }

    /// The problems a patch's JSON gets, reading or checking it against the shipped world, as `path: message`.
    static func problems(_ json: String) throws -> [String] {
        let world = try shippedPack().initialState.world
        do {
            let patch = try patch(json)
            try patch.check(in: world)
            return []
        } catch let error as StatePatchError {
            return error.problems.map(\.description)
        }
    }

    @Test func everyPartIsReadFromJSON() throws {
        let patch = try Self.patch(
            #"""
            {"player": {"name": "Wren", "gold": 40, "inventory": {"bread": 2, "rope": null}, "location": "smithy"},
             "npcs": {"mira": {"gold": 120, "inventory": {"lantern": 0}, "location": "north_gate", "attitude": -20}},
             "flags": {"set": ["gate_open"], "clear": ["curfew"]}, "counters": {"goose_visits": 3},
             "quests": {"locket": "asked"}}
            """#)
        #expect(patch.player == .init(name: "Wren", gold: 40, inventory: ["bread": 2, "rope": 0], location: "smithy"))
        #expect(
            patch.npcs == ["mira": .init(gold: 120, inventory: ["lantern": 0], location: "north_gate", attitude: -20)])
        #expect(patch.setFlags == ["gate_open"] && patch.clearFlags == ["curfew"])
        #expect(patch.counters == ["goose_visits": 3] && patch.quests == ["locket": "asked"])
        #expect(try Self.patch("{}").isEmpty)
    }

    @Test(arguments: [
        (
            #"{"player": {"gld": 4}}"#,
            #"$.player.gld: unknown member "gld" (did you mean "gold"?); known here: name, gold, inventory, location"#
        ),
        (
            #"{"players": {}}"#,
            #"$.players: unknown member "players" (did you mean "player"?); known here: player, npcs, flags, counters, quests"#
        ),
        (#"{"player": {"gold": "lots"}}"#, "$.player.gold: expected a whole number, found string"),
        (#"{"player": {"gold": 2.5}}"#, "$.player.gold: expected a whole number, found 2.5"),
        (#"{"player": {"gold": -1}}"#, "$.player.gold: gold must be from 0 to 1000000000, not -1"),
        (#"{"player": {"gold": 1000000001}}"#, "$.player.gold: gold must be from 0 to 1000000000, not 1000000001"),
        (
            #"{"player": {"inventory": {"bred": 2}}}"#,
            #"$.player.inventory.bred: unknown item "bred" (did you mean "bread"?)"#
        ),
        (
            #"{"player": {"inventory": {"bread": 10001}}}"#,
            "$.player.inventory.bread: a quantity must be from 0 (none) to 10000, not 10001"
        ),
        (
            #"{"player": {"location": "smithyy"}}"#,
            #"$.player.location: unknown location "smithyy" (did you mean "smithy"?)"#
        ),
        (
            #"{"player": {"name": ""}}"#,
            "$.player.name: a name has 1 to 64 characters and no control characters (line breaks, tabs)"
        ),
        (#"{"npcs": {"mria": {"gold": 1}}}"#, #"$.npcs.mria: unknown NPC "mria" (did you mean "mira"?)"#),
        (
            #"{"npcs": {"mira": {"attitude": 101}}}"#,
            "$.npcs.mira.attitude: an attitude must be from -100 to 100, not 101"
        ),
        (#"{"npcs": {"mira": []}}"#, "$.npcs.mira: expected an object, found array"),
        (
            #"{"flags": {"set": ["Gate Open"]}}"#,
            #"$.flags.set[0]: "Gate Open" is not a valid flag name: use lowercase letters, digits and _, starting with a letter"#
        ),
        (
            #"{"flags": {"set": ["a"], "clear": ["a"]}}"#,
            #"$.flags.clear[0]: the flag "a" is both set and cleared: give it in one list only"#
        ),
        (#"{"counters": {"visits": -1}}"#, "$.counters.visits: a counter must be from 0 to 1000000000, not -1"),
        (#"{"quests": {"lockt": "asked"}}"#, #"$.quests.lockt: unknown quest "lockt" (did you mean "locket"?)"#),
        (
            #"{"quests": {"locket": "askd"}}"#,
            #"$.quests.locket: the quest locket has no stage "askd" (did you mean "asked"?); its stages are unstarted, asked, found, returned"#
        ),
        (
            #"{"counters": {"odd key": 1}}"#,
            #"$.counters["odd key"]: "odd key" is not a valid counter name: use lowercase letters, digits and _, starting with a letter"#
        ),
    ])
    func aWrongValueIsNamedByItsPathWithADidYouMean(json: String, expected: String) throws {
        #expect(try Self.problems(json) == [expected])
    }

    @Test func everyProblemIsReportedAtOnce() throws {
        let problems = try Self.problems(#"{"player": {"gold": -1, "inventory": {"bred": 1}}, "npcs": {"mria": {}}}"#)
        #expect(problems.count == 3, "\(problems)")
    }

    @Test func aRefusedPatchChangesNothingAndAGoodOneChangesOnlyWhatItNames() async throws {
        let pack = try shippedPack()
        let game = Game(
            state: pack.initialState, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) })
        let before = await game.state
        await #expect(throws: StatePatchError.self) {
            try await game.apply(try Self.patch(#"{"player": {"gold": 99}, "npcs": {"mira": {"gold": -5}}}"#))
        }
        #expect(await game.state == before)

        let changes = try await game.apply(
            try Self.patch(
                #"{"player": {"gold": 99, "inventory": {"bread": 3, "rusty_sword": 0}}, "npcs": {"mira": {"inventory": {"lantern": 4}}}, "counters": {"goose_visits": 0}}"#
            ))
        let state = await game.state
        #expect(state.player.gold == 99)
        #expect(state.player.inventory.quantity(of: "bread") == 3)
        #expect(!state.player.inventory.contains("rusty_sword"))
        #expect(state.player.inventory.contains("aunts_letter"))
        #expect(state.world.npcs["mira"]?.inventory.quantity(of: "lantern") == 4)
        #expect(state.world.npcs["mira"]?.inventory.quantity(of: "rope") == 2)
        #expect(state.player.name == before.player.name)
        // A counter set to what it was (0) is no change.
        #expect(
            changes == [
                .playerGold(from: before.player.gold, to: 99),
                .playerItem("bread", from: 2, to: 3),
                .playerItem("rusty_sword", from: 1, to: 0), .npcItem("mira", "lantern", from: 1, to: 4),
            ])
    }

    @Test func theNPCsNextTurnSeesThePushedStock() async throws {
        let pack = try shippedPack()
        let game = Game(
            state: pack.initialState, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        try await game.apply(StatePatch(npcs: ["mira": .init(inventory: ["lantern": 0])]))
        screen.clear()
        await game.perform("how much is the lantern?", output: screen.record)
        #expect(!screen.text.contains("25 gold"), "\(screen.text)")
        try await game.apply(StatePatch(npcs: ["mira": .init(inventory: ["lantern": 3])]))
        screen.clear()
        await game.perform("how much is the lantern?", output: screen.record)
        #expect(screen.text.contains("25 gold"), "\(screen.text)")
    }

    @Test func theNPCsDialogueRulesReadThePushedStory() async throws {
        let pack = try shippedPack()
        let game = Game(
            state: pack.initialState, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) })
        let screen = Screen()
        // Oona's report on the locket waits for `quest locket >= asked`, Hesper's news for `flag locket_returned`.
        await game.say("tell me about the moonpetal locket", to: "oona", output: screen.record)
        #expect(screen.text.contains("reported lost in the flood"), "\(screen.text)")
        try await game.apply(try Self.patch(#"{"quests": {"locket": "asked"}}"#))
        screen.clear()
        await game.say("tell me about the moonpetal locket", to: "oona", output: screen.record)
        #expect(screen.text.contains("Report on file"), "\(screen.text)")

        await game.say("any news?", to: "hesper", output: screen.record)
        screen.clear()
        await game.say("any gossip?", to: "hesper", output: screen.record)
        #expect(!screen.text.contains("toasting"), "\(screen.text)")
        try await game.apply(try Self.patch(#"{"flags": {"set": ["locket_returned"]}}"#))
        screen.clear()
        await game.say("any gossip?", to: "hesper", output: screen.record)
        #expect(screen.text.contains("toasting"), "\(screen.text)")
    }

    @Test func movingThePlayerAwayEndsTheConversation() async throws {
        let pack = try shippedPack()
        let game = Game(
            state: pack.initialState, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) })
        await game.perform("talk to mira") { _ in }
        try await game.apply(StatePatch(player: .init(gold: 3)))
        #expect(await game.partner == "mira")
        try await game.apply(StatePatch(player: .init(location: "smithy")))
        #expect(await game.partner == nil)
        #expect(await game.state.player.location == "smithy")
    }

    @Test func aPushedStateIsAutosavedAndLoadsInANewGame() async throws {
        let folder = TemporaryFolder()
        let pack = try shippedPack()
        let store = SaveGameStore(folder: folder.url)
        let first = GameHost(
            pack: pack, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }, store: store)
        // The first line writes the whole save; the push after it is written as a delta.
        await first.perform("look") { _ in }
        let patch = try Self.patch(
            #"""
            {"player": {"name": "Wren", "gold": 77, "inventory": {"bread": 3, "rusty_sword": 0}, "location": "smithy"},
             "npcs": {"mira": {"gold": 321, "inventory": {"lantern": 5, "rope": 0}, "location": "north_gate", "attitude": 40}},
             "flags": {"set": ["gate_open"]}, "counters": {"goose_visits": 3}, "quests": {"locket": "found"}}
            """#)
        let changes = try await first.apply(patch) { _ in }
        #expect(changes.count == 13)
        let pushed = await first.game.state
        await first.close()

        let file = try store.open(slot: "autosave", access: .readOnly)
        let loaded = try file.load(pack: pack)
        file.close()
        #expect(loaded.state == pushed)
        #expect(loaded.state.player.name == "Wren")
        #expect(loaded.state.world.npcs["mira"]?.gold == 321)
        #expect(loaded.state.world.npcs["mira"]?.inventory.quantity(of: "rope") == 0)
        #expect(loaded.state.story.attitude(of: "mira") == 40)
        #expect(loaded.state.story.counter("goose_visits") == 3)
        #expect(loaded.state.stage(of: "locket") == "found")
        #expect(loaded.state.flags.contains("gate_open"))
        #expect(loaded.metadata.playerName == "Wren")

        // Set back, and saved again as a delta: a quest set back to its first stage, a flag cleared, a counter at 0.
        let second = GameHost(
            pack: pack, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }, store: store)
        await second.perform("load autosave") { _ in }
        await second.perform("look") { _ in }
        try await second.apply(
            try Self.patch(
                #"{"flags": {"clear": ["gate_open"]}, "counters": {"goose_visits": 0}, "quests": {"locket": "unstarted"}, "npcs": {"mira": {"attitude": 0}}}"#
            )
        ) { _ in }
        let reset = await second.game.state
        await second.close()
        let again = try store.open(slot: "autosave", access: .readOnly)
        defer { again.close() }
        let reloaded = try again.load(pack: pack)
        #expect(reloaded.state == reset)
        #expect(!reloaded.state.flags.contains("gate_open"))
        #expect(reloaded.state.story.counter("goose_visits") == 0 && reloaded.state.story.attitude(of: "mira") == 0)
        #expect(reloaded.state.stage(of: "locket") == "unstarted")
    }
}
