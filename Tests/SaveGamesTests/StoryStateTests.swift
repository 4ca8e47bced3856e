import Foundation
import GameWorld
import LanguageModels
import ParleyJSON
import ParleySQLite
import SaveGames
import Testing

/// The story's state in saves: flags, counters, attitudes, quest stages and beats, in full saves and autosaves.
@Suite struct StoryStateTests {
    let pack = SaveTestWorld.pack()

    /// The fixture state, with the story: a flag, a counter, two attitudes, a quest stage, a beat fired.
    func storyState() throws -> GameState { try SaveFixtures.state() }

    @Test("A full save and a load give back the story exactly")
    func fullSaveRoundTrip() throws {
        let state = try storyState()
        #expect(!state.story.isEmpty)
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: state))
            let loaded = try save.load(pack: pack)
            #expect(loaded.state == state)
            #expect(loaded.missing == [])
            #expect(try save.story() == state.story)

            // A full save replaces the story: what is no longer set is gone.
            try save.writeFull(SaveSnapshot(state: pack.initialState))
            #expect(try save.load(pack: pack).state == pack.initialState)
            #expect(try save.story().isEmpty)
        }
    }

    @Test("The story is in readable tables, one row per value that is not at its start")
    func readableRows() throws {
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: try storyState()))
            let db = try Database(path: save.url.path, options: DatabaseOptions(access: .readOnly))
            #expect(try db.query("SELECT name FROM flags").map { try $0.get(0, as: String.self) } == ["met_mira"])
            #expect(try db.scalar("SELECT value FROM counters WHERE name = 'visits'", as: Int.self) == 2)
            #expect(
                try db.query("SELECT npc, value FROM attitudes ORDER BY npc").map {
                    "\(try $0.get(0, as: String.self))=\(try $0.get(1, as: Int.self))"
                } == ["brannoc=-5", "mira=10"])
            #expect(try db.scalar("SELECT stage FROM quests WHERE id = 'key'", as: String.self) == "asked")
            #expect(try db.scalar("SELECT count FROM beats WHERE npc = 'mira' AND beat = 'hello'", as: Int.self) == 1)
        }
    }

    @Test("An autosave writes only the story rows the events changed, and deletes those back at their start")
    func autosaveWritesTheStoryDelta() throws {
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: pack.initialState))
            var state = pack.initialState
            let events: [GameEvent] = [
                .setFlag(name: "met_mira"), .changedCounter(name: "visits", by: 1),
                .changedAttitude(npc: "mira", by: 10), .advancedQuest(quest: "key", to: "asked"),
                .firedBeat(npc: "mira", beat: "hello"),
            ]
            for event in events { try state.apply(event) }
            let summary = try save.autosave(SaveDelta(state: state, events: events, playTime: .seconds(1)))
            // One row for each, and the play time.
            #expect(summary.rowsWritten == 5 + 1)
            #expect(try save.load(pack: pack).state == state)

            // Back to the start: the rows are deleted.
            let undo: [GameEvent] = [
                .clearedFlag(name: "met_mira"), .setCounter(name: "visits", to: 0),
                .changedAttitude(npc: "mira", by: -10),
            ]
            for event in undo { try state.apply(event) }
            let second = try save.autosave(SaveDelta(state: state, events: undo, playTime: .seconds(2)))
            #expect(second.rowsWritten == 3 + 1)
            #expect(try save.load(pack: pack).state == state)
            #expect(try save.story() == StoryState(quests: ["key": "asked"], beats: ["mira": ["hello": 1]]))

            // Nothing changed, nothing written.
            let again = try save.autosave(SaveDelta(state: state, events: undo, playTime: .seconds(2)))
            #expect(again.rowsWritten == 0)
        }
    }

    @Test("An autosave's story cost depends on the change, not on how much story there is")
    func autosaveCostDoesNotGrowWithTheStory() throws {
        try withTemporaryDirectory { folder in
            func cost(flagsAlreadySet: Int) throws -> SaveWriteSummary {
                let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot-\(flagsAlreadySet)")
                var state = pack.initialState
                for index in 0..<flagsAlreadySet {
                    try state.apply(.setFlag(name: "old_\(index)"))
                    try state.apply(.changedCounter(name: "count_\(index)", by: index + 1))
                }
                try save.writeFull(SaveSnapshot(state: state))
                let events: [GameEvent] = [.setFlag(name: "new"), .changedCounter(name: "count_0", by: 1)]
                for event in events { try state.apply(event) }
                let summary = try save.autosave(SaveDelta(state: state, events: events, playTime: .seconds(1)))
                #expect(try save.load(pack: pack).state == state)
                return summary
            }
            let small = try cost(flagsAlreadySet: 1)
            let large = try cost(flagsAlreadySet: 2_000)
            #expect(small == large)
            #expect(small.rowsWritten == 2 + 1)
        }
    }

    @Test("StateChanges names the story's flags, counters, attitudes, quests and beats")
    func stateChanges() {
        let changes = StateChanges(events: [
            .setFlag(name: "a"), .clearedFlag(name: "b"), .changedCounter(name: "n", by: 1),
            .setCounter(name: "m", to: 2), .changedAttitude(npc: "mira", by: 3),
            .advancedQuest(quest: "key", to: "asked"),
            .firedBeat(npc: "oona", beat: "x"),
        ])
        #expect(changes.flags == ["a", "b"])
        #expect(changes.counters == ["n", "m"])
        #expect(changes.attitudes == ["mira"])
        #expect(changes.quests == ["key"])
        #expect(changes.beats == ["oona"])
        #expect(changes.story && !changes.player && changes.npcs.isEmpty && changes.locations.isEmpty)
        #expect(!StateChanges(events: [.moved(from: "a", to: "b")]).story)
    }

    @Test("Quests, stages, NPCs and beats the pack no longer has are left out and reported")
    func missingStoryContent() throws {
        var state = try storyState()
        try state.apply(.setFlag(name: "kept"))
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: state))

            // The quest is gone, and so is Brannoc.
            let fewer = SaveTestWorld.pack(removingNPCs: ["brannoc"], removingQuests: ["key"])
            let loaded = try save.load(pack: fewer)
            #expect(
                loaded.missing.map(\.description).sorted() == [
                    #"npc "brannoc" (at smithy with 30 gold, carrying 1 × bread, 1 × sword) is not in the content pack and was left out"#,
                    #"npc "brannoc" (with 1 dealing with the player) is not in the content pack and was left out"#,
                    #"npc "brannoc" (with an attitude of -5) is not in the content pack and was left out"#,
                    #"quest "key" (at the stage "asked") is not in the content pack and was left out"#,
                ])
            #expect(loaded.state.flags == ["kept", "met_mira"])
            #expect(loaded.state.story.counter("visits") == 2)
            #expect(loaded.state.story.attitudes == ["mira": 10])
            #expect(loaded.state.story.quests == [:])

            // The quest lost a stage, and Mira her beat.
            var world = SaveTestWorld.pack().world
            world.quests["key"]?.stages = ["unstarted", "done"]
            world.npcs["mira"]?.beats = []
            let changed = try save.load(
                pack: ContentPack(world: world, startingPlayer: SaveTestWorld.pack().startingPlayer))
            #expect(
                changed.missing.map(\.description) == [
                    #"stage "asked" (the stage of the quest key; it is at "unstarted" instead) is not in the content pack and was left out"#,
                    #"beat "hello" (a beat of mira, fired 1 times) is not in the content pack and was left out"#,
                ])
            #expect(changed.state.stage(of: "key") == "unstarted")
            #expect(changed.state.story.beats == [:])
        }
    }

    @Test("Export holds the story, keys sorted")
    func export() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            try store.open(slot: "slot").writeFull(SaveSnapshot(state: try storyState()))
            let story = try #require(try store.export(slot: "slot")["state"]?["story"])
            #expect(
                story.jsonString()
                    == #"{"flags":["met_mira"],"counters":{"visits":2},"attitudes":{"brannoc":-5,"mira":10},"quests":{"key":"asked"},"beats":{"mira":{"hello":1}},"dealings":{"brannoc":[{"kind":"gave","item":"bread","quantity":1,"gold":0}],"mira":[{"kind":"bought","item":"lantern","quantity":1,"gold":20},{"kind":"tradedIn","item":"apple","quantity":1,"gold":0}]}}"#
            )
        }
    }

    @Test("A save of schema version 1 upgrades to a story with no progress")
    func versionOneHasNoStory() throws {
        try withTemporaryDirectory { folder in
            let copy = folder.appendingPathComponent("slot.parley")
            try FileManager.default.copyItem(at: SaveFixtures.schemaFixture(version: 1), to: copy)
            let save = try SaveGameStore(folder: folder).open(slot: "slot")
            #expect(try save.story().isEmpty)
            let loaded = try save.load(pack: pack)
            #expect(loaded.state.story.isEmpty)
            // It can be autosaved with story events at once.
            var state = loaded.state
            try state.apply(.setFlag(name: "upgraded"))
            try save.autosave(SaveDelta(state: state, events: [.setFlag(name: "upgraded")], playTime: .seconds(900)))
            #expect(try save.load(pack: pack).state == state)
        }
    }

    @Test("Dealings are saved one row each, appended by autosaves, and read back in order")
    func dealingsAreAppended() throws {
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            var state = try storyState()
            try save.writeFull(SaveSnapshot(state: state))
            #expect(try save.load(pack: pack).state.story.dealings(with: "brannoc") == [.init(.gave, item: "bread")])
            // Another gift: the autosave appends one row and leaves the first as it was.
            let events: [GameEvent] = [.gave(item: "apple", quantity: 2, to: "brannoc")]
            for event in events { try state.apply(event) }
            let delta = SaveDelta(state: state, events: events, playTime: .seconds(1))
            #expect(delta.changedDealings == ["brannoc"])
            try save.autosave(delta)
            let db = try Database(path: save.url.path, options: DatabaseOptions(access: .readOnly))
            #expect(
                try db.query(
                    "SELECT position, kind, item, quantity FROM dealings WHERE npc = 'brannoc' ORDER BY position"
                )
                .map {
                    "\(try $0.get(0, as: Int.self)) \(try $0.get(1, as: String.self)) \(try $0.get(2, as: String.self)) \(try $0.get(3, as: Int.self))"
                }
                    == ["0 gave bread 1", "1 gave apple 2"])
            #expect(try save.load(pack: pack).state == state)
        }
    }

    @Test("A save of schema version 4 upgrades, keeps its dealings and saves a swap's traded-in goods")
    func versionFourTakesTradedInDealings() throws {
        try withTemporaryDirectory { folder in
            let copy = folder.appendingPathComponent("slot.parley")
            try FileManager.default.copyItem(at: SaveFixtures.schemaFixture(version: 4), to: copy)
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            #expect(try save.metadata().schemaVersion == SaveGameStore.schemaVersion)
            var state = try save.load(pack: pack).state
            // Version 4's dealings are as they were.
            #expect(state.story.dealings(with: "brannoc") == [.init(.gave, item: "bread")])
            // A swap at Mira's stall: version 4's CHECK on `kind` refuses its `tradedIn` row; the upgraded table
            // takes it.
            let events: [GameEvent] = [
                .moved(from: "smithy", to: "square"), .npcMoved(npc: "mira", from: "cellar", to: "square"),
                SaveFixtures.swap,
            ]
            for event in events { try state.apply(event) }
            #expect(
                state.story.dealings(with: "mira") == [
                    .init(.bought, item: "lantern", gold: 20), .init(.tradedIn, item: "apple"),
                ])
            try save.autosave(SaveDelta(state: state, events: events, playTime: .seconds(900)))
            #expect(try save.load(pack: pack).state == state)
            #expect(try save.integrityCheck() == [])
        }
    }

    @Test("The NPC the player talks to is saved, and a save that says no one restores no one")
    func talkingToIsSaved() throws {
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: pack.initialState, talkingTo: "mira"))
            #expect(try save.metadata().talkingTo == "mira")
            var delta = SaveDelta(state: pack.initialState, playTime: .seconds(1))
            delta.talkingTo = "brannoc"
            try save.autosave(delta)
            #expect(try save.load(pack: pack).metadata.talkingTo == "brannoc")
            try save.autosave(SaveDelta(state: pack.initialState, playTime: .seconds(2)))
            #expect(try save.load(pack: pack).metadata.talkingTo == nil)
        }
    }
}
