import Foundation
import GameWorld
import LanguageModels
import ParleyJSON
import ParleySQLite
import SaveGames
import SyntheticWorlds
import Testing

@Suite struct SaveFileTests {
    let pack = SaveTestWorld.pack()

    /// The pack's state after the player took the apples, walked to the smithy, gave Brannoc bread and Mira moved.
    func playedState() throws -> (GameState, [GameEvent]) {
        let events: [GameEvent] = [
            .tookItem(item: "apple", quantity: 3, from: "square"),
            .moved(from: "square", to: "smithy"),
            .gave(item: "bread", quantity: 1, to: "brannoc"),
            .npcMoved(npc: "mira", from: "square", to: "cellar"),
        ]
        return (try GameState.replaying(events, from: pack.initialState), events)
    }

    @Test("A full save loads back as the same state, pending offers and metadata")
    func fullSaveRoundTrip() throws {
        let (state, _) = try playedState()
        let offer = SavedOffer(
            offer: .buying("lantern", from: "mira", for: 24), summary: "Mira offers 1 Lantern for 24 gold.")
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "Slot 1")
            #expect(save.slot == "slot-1")
            #expect(try !save.hasGame())
            let summary = try save.writeFull(
                SaveSnapshot(
                    state: state, conversations: ["mira": SampleTranscripts.conversation("mira")],
                    pendingOffers: ["mira": offer], playTime: .milliseconds(754_250), label: "Before the duel"))
            #expect(summary.rowsWritten > 0)
            #expect(try save.hasGame())

            let loaded = try save.load(pack: pack)
            #expect(loaded.state == state)
            #expect(loaded.pendingOffers == ["mira": offer])
            #expect(loaded.conversations == ["mira"])
            #expect(loaded.missing == [])
            #expect(!loaded.contentChanged)
            let metadata = loaded.metadata
            #expect(metadata.schemaVersion == SaveGameStore.schemaVersion)
            #expect(metadata.parleyVersion == ParleyVersion.current)
            #expect(metadata.createdAt == Date(timeIntervalSince1970: 1_750_000_000.250))
            #expect(metadata.updatedAt == metadata.createdAt)
            #expect(metadata.playTime == .milliseconds(754_250))
            #expect(metadata.label == "Before the duel")
            #expect(metadata.worldID == "save_test")
            #expect(metadata.worldTitle == "Save Test")
            #expect(metadata.contentHash == SaveTestWorld.contentHash)
            #expect(metadata.playerName == "Ada")
            #expect(metadata.locationName == "Smithy")
            #expect(try save.metadata() == metadata)
            #expect(try save.integrityCheck() == [])
        }
    }

    @Test("An autosave writes only the rows of what the events changed")
    func autosaveWritesTheDelta() throws {
        let (state, events) = try playedState()
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: pack.initialState))
            let summary = try save.autosave(SaveDelta(state: state, events: events, playTime: .seconds(60)))
            // Player: row and 2 item rows (apple added, bread gone); square: apples gone; Brannoc: bread added;
            // Mira: location; the gift to Brannoc: one dealing; metadata: player name unchanged, location name,
            // updated_at unchanged (fixed clock), play time, talking to no one unchanged.
            #expect(summary.rowsWritten == 1 + 2 + 1 + 1 + 1 + 1 + 1 + 1)
            #expect(try save.load(pack: pack).state == state)

            // The same delta again changes nothing.
            let again = try save.autosave(SaveDelta(state: state, events: events, playTime: .seconds(60)))
            #expect(again.rowsWritten == 0)
        }
    }

    @Test("StateChanges names what each event changes")
    func stateChanges() {
        let offer = TradeOffer.buying("lantern", from: "mira", for: 20)
        let changes = StateChanges(events: [
            .moved(from: "square", to: "smithy"), .droppedItem(item: "bread", quantity: 1, at: "smithy"),
            .traded(offer: offer), .npcMoved(npc: "oona", from: "smithy", to: "square"),
            .receivedGold(amount: 2, from: "brannoc"),
        ])
        #expect(changes.player)
        #expect(changes.npcs == ["mira", "oona", "brannoc"])
        #expect(changes.locations == ["smithy"])
        let npcOnly = StateChanges(events: [.npcMoved(npc: "oona", from: "smithy", to: "square")])
        #expect(!npcOnly.player && npcOnly.locations.isEmpty)
    }

    @Test("A conversation that does not continue the saved one is rewritten in full, never corrupted")
    func rewriteWhenNotAContinuation() throws {
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder).open(slot: "slot")
            let state = pack.initialState
            let long = SampleTranscripts.conversation("mira", turns: 3)
            try save.writeFull(SaveSnapshot(state: state, conversations: ["mira": long]))

            // Trimmed (fewer entries): rewritten.
            var trimmed = long
            trimmed.transcript.removeLast(6)
            var summary = try save.autosave(SaveDelta(state: state, conversations: ["mira": trimmed], playTime: .zero))
            #expect(summary.rewrittenConversations == ["mira"])
            #expect(try save.transcript(npc: "mira") == trimmed)

            // Same length, other last entry (a compacted history): rewritten.
            var edited = trimmed
            edited.transcript[edited.transcript.count - 1] = .response(
                Transcript.Response(id: "summary", segments: [.text(.init(id: "s", content: "Earlier: haggling."))]))
            summary = try save.autosave(SaveDelta(state: state, conversations: ["mira": edited], playTime: .zero))
            #expect(summary.rewrittenConversations == ["mira"])
            #expect(try save.transcript(npc: "mira") == edited)

            // A continuation again: appended.
            let continued = SampleTranscripts.continuing(edited, npc: "mira", turn: 9)
            summary = try save.autosave(SaveDelta(state: state, conversations: ["mira": continued], playTime: .zero))
            #expect(summary.rewrittenConversations == [])
            #expect(summary.entriesAppended == 6)
            #expect(try save.transcript(npc: "mira") == continued)
            let db = try Database(path: save.url.path, options: DatabaseOptions(access: .readOnly))
            #expect(
                try db.scalar("SELECT count(*) FROM transcript_entries", as: Int.self) == continued.transcript.count)
            #expect(try db.scalar("SELECT entry_count FROM conversations", as: Int.self) == continued.transcript.count)
        }
    }

    @Test("Conversation annotations are updated where they changed, and new NPCs' conversations are added")
    func annotationsAndNewConversations() throws {
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: pack.initialState))
            var mira = SampleTranscripts.conversation("mira")
            try save.autosave(SaveDelta(state: pack.initialState, conversations: ["mira": mira], playTime: .zero))
            mira.annotations["model.version"] = "2"
            mira.annotations["parley.version"] = nil
            let summary = try save.autosave(
                SaveDelta(
                    state: pack.initialState,
                    conversations: ["mira": mira, "brannoc": SampleTranscripts.conversation("brannoc")],
                    playTime: .zero))
            #expect(summary.entriesAppended == 7)
            #expect(try save.transcript(npc: "mira") == mira)
            #expect(try save.transcript(npc: "brannoc") == SampleTranscripts.conversation("brannoc"))
            #expect(try save.transcript(npc: "oona") == nil)
            #expect(try save.conversationLengths() == ["mira": 7, "brannoc": 7])
        }
    }

    @Test("Pending offers are written as the difference with the saved ones")
    func pendingOffers() throws {
        let first = SavedOffer(offer: .buying("lantern", from: "mira", for: 24), summary: "1 Lantern for 24 gold.")
        let second = SavedOffer(offer: .selling("sword", to: "brannoc", for: 15), summary: "Brannoc buys the sword.")
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: pack.initialState, pendingOffers: ["mira": first]))
            var summary = try save.autosave(
                SaveDelta(
                    state: pack.initialState, pendingOffers: ["mira": first, "brannoc": second], playTime: .zero))
            #expect(try save.load(pack: pack).pendingOffers == ["mira": first, "brannoc": second])
            summary = try save.autosave(
                SaveDelta(state: pack.initialState, pendingOffers: ["brannoc": second], playTime: .zero))
            #expect(summary.rowsWritten == 1)
            #expect(try save.load(pack: pack).pendingOffers == ["brannoc": second])
            // nil: the offers did not change.
            try save.autosave(SaveDelta(state: pack.initialState, playTime: .zero))
            #expect(try save.load(pack: pack).pendingOffers == ["brannoc": second])
        }
    }

    @Test("Labels, play time and update times follow the autosaves")
    func metadataFollowsAutosaves() throws {
        let clock = ManualClock()
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: clock.now).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: pack.initialState, label: "Start"))
            clock.advance(90)
            try save.autosave(SaveDelta(state: pack.initialState, playTime: .seconds(90)))
            var metadata = try save.metadata()
            #expect(metadata.label == "Start")
            #expect(metadata.playTime == .seconds(90))
            #expect(metadata.updatedAt.timeIntervalSince(metadata.createdAt) == 90)
            try save.autosave(SaveDelta(state: pack.initialState, playTime: .seconds(91), label: "Later"))
            metadata = try save.metadata()
            #expect(metadata.label == "Later")
        }
    }

    @Test("A slot never saved has no game: loading and autosaving say so")
    func noGame() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder)
            let save = try store.open(slot: "new")
            let load = try #require(throws: SaveGameError.self) { try save.load(pack: pack) }
            #expect(load.code == .noGame)
            #expect(load.description.contains("Start a new game and save it"))
            let autosave = try #require(throws: SaveGameError.self) {
                try save.autosave(SaveDelta(state: pack.initialState, playTime: .zero))
            }
            #expect(autosave.code == .noGame)
            let reader = try store.open(slot: "new", access: .readOnly)
            #expect(try #require(throws: SaveGameError.self) { try reader.metadata() }.code == .noGame)
            #expect(
                try #require(throws: SaveGameError.self) { try store.open(slot: "other", access: .readOnly) }.code
                    == .notFound)
        }
    }

    @Test("A save loaded with another world's pack, or autosaved with another world's state, is refused")
    func worldMismatch() throws {
        let other = SyntheticWorld.generate(seed: 1, locations: 2, npcs: 1, items: 2)
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: pack.initialState))
            let load = try #require(throws: SaveGameError.self) { try save.load(pack: other) }
            #expect(load.code == .worldMismatch)
            #expect(load.description.contains("\"save_test\""))
            let autosave = try #require(throws: SaveGameError.self) {
                try save.autosave(SaveDelta(state: other.initialState, playerChanged: true, playTime: .zero))
            }
            #expect(autosave.code == .worldMismatch)
            #expect(try save.load(pack: pack).state == pack.initialState)
        }
    }

    @Test("Feedback attachments and recordings are kept, in order, through full saves")
    func attachments() throws {
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: pack.initialState))
            try save.addFeedback(id: "f1", npc: "mira", json: #"{"sentiment":"negative"}"#)
            try save.addFeedback(
                id: "f2", npc: nil, createdAt: Date(timeIntervalSince1970: 1_800_000_000),
                json: #"{"sentiment":"positive"}"#)
            try save.addRecording(id: "r1", npc: "brannoc", json: #"{"turns":[]}"#)
            try save.writeFull(SaveSnapshot(state: pack.initialState))
            #expect(try save.feedback().map(\.id) == ["f1", "f2"])
            #expect(try save.feedback(npc: "mira").map(\.json) == [#"{"sentiment":"negative"}"#])
            #expect(try save.feedback()[0].createdAt == fixedNow())
            #expect(
                try save.recordings() == [
                    SavedAttachment(id: "r1", npc: "brannoc", createdAt: fixedNow(), json: #"{"turns":[]}"#)
                ])
            // Adding a report again (a manual save of a game whose reports the autosave has) keeps the first copy.
            try save.addFeedback(id: "f1", npc: nil, json: "{}")
            #expect(try save.feedback().map(\.json) == [#"{"sentiment":"negative"}"#, #"{"sentiment":"positive"}"#])
        }
    }

    @Test("The schema is readable: the tables a person sees with sqlite3 .tables")
    func readableSchema() throws {
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder).open(slot: "slot")
            let db = try Database(path: save.url.path, options: DatabaseOptions(access: .readOnly))
            #expect(
                try db.tableNames() == [
                    "attitudes", "beats", "conversation_annotations", "conversations", "counters", "dealings",
                    "feedback",
                    "flags",
                    "location_items", "locations", "metadata", "npc_items", "npcs", "pending_offers", "player",
                    "player_items", "quests", "recording_parts", "recordings", "schema_migrations",
                    "transcript_entries", "turn_annotations",
                ])
            #expect(try db.userVersion() == 5)
            #expect(try db.scalar("PRAGMA application_id", as: Int.self) == 0x5052_4C59)
            #expect(try db.scalar("PRAGMA journal_mode", as: String.self) == "wal")
        }
    }

    @Test("Export holds the metadata, state, conversations, offers and attachments, the same bytes every time")
    func export() throws {
        let (state, _) = try playedState()
        let offer = SavedOffer(offer: .buying("lantern", from: "mira", for: 24), summary: "A lantern for 24.")
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            let mira = SampleTranscripts.conversation("mira")
            do {
                let save = try store.open(slot: "slot")
                try save.writeFull(
                    SaveSnapshot(
                        state: state, conversations: ["mira": mira], pendingOffers: ["mira": offer],
                        playTime: .seconds(5),
                        label: "Exported"))
                try save.addFeedback(id: "f1", npc: "mira", json: #"{"sentiment":"negative"}"#)
            }
            let export = try store.export(slot: "slot")
            #expect(export["format"] == "parley-save-export")
            #expect(export["metadata"]?["label"] == "Exported")
            #expect(export["metadata"]?["playTimeSeconds"]?.doubleValue == 5)
            #expect(export["state"]?["player"]?["location"] == "smithy")
            #expect(export["state"]?["player"]?["inventory"] == ["apple": 3])
            #expect(export["state"]?["npcs"]?["brannoc"]?["inventory"] == ["bread": 1, "sword": 1])
            #expect(export["state"]?["locations"]?["square"]?["items"] == [:])
            #expect(export["conversations"]?["mira"] == mira.jsonValue)
            #expect(export["pendingOffers"]?["mira"]?["summary"] == "A lantern for 24.")
            #expect(export["pendingOffers"]?["mira"]?["offer"]?["npc"] == "mira")
            #expect(export["feedback"]?[0]?["attachment"]?["sentiment"] == "negative")
            #expect(export["recordings"] == [])
            #expect(try store.export(slot: "slot").jsonString() == export.jsonString())
        }
    }

    @Test("Rows stored out of key order load, report what the pack lacks and export as rows in order do")
    func rowsOutOfOrder() throws {
        let (state, _) = try playedState()
        let lacking = SaveTestWorld.pack(removingNPCs: ["oona"], removingItems: ["lantern", "sword"])
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            let save = try store.open(slot: "slot")
            try save.writeFull(
                SaveSnapshot(
                    state: state,
                    conversations: [
                        "mira": SampleTranscripts.conversation("mira"),
                        "brannoc": SampleTranscripts.conversation("brannoc"),
                    ]))
            save.close()
            let before = (
                try store.export(slot: "slot"), try store.open(slot: "slot", access: .readOnly).load(pack: lacking)
            )
            #expect(before.1.missing.count >= 3)
            // Each table's rows stored again in the reverse order of their keys, as later saves may leave them.
            let db = try Database(path: try store.slotURL("slot").path, options: DatabaseOptions(foreignKeys: false))
            for (table, key) in [
                ("npcs", "id"), ("npc_items", "npc, item"), ("player_items", "item"),
                ("location_items", "location, item"),
                ("conversations", "npc"),
            ] {
                try db.execute(
                    sql: """
                        CREATE TEMP TABLE copied AS SELECT * FROM \(table);
                        DELETE FROM \(table);
                        INSERT INTO \(table) SELECT * FROM copied ORDER BY \(key.split(separator: ",").map { "\($0) DESC" }.joined(separator: ","));
                        DROP TABLE copied;
                        """)
            }
            let first = try #require(try db.scalar("SELECT id FROM npcs ORDER BY rowid LIMIT 1", as: String.self))
            #expect(first == "oona")
            let after = (
                try store.export(slot: "slot"), try store.open(slot: "slot", access: .readOnly).load(pack: lacking)
            )
            #expect(after.0.jsonString() == before.0.jsonString())
            #expect(after.1.state == before.1.state)
            #expect(after.1.missing == before.1.missing)
            #expect(after.1.conversations == ["brannoc", "mira"])
        }
    }

    @Test("list shows saved, empty and unreadable slots, newest first; delete removes a slot and its side files")
    func listAndDelete() throws {
        let clock = ManualClock()
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: clock.now)
            #expect(SaveGameStore(folder: folder.appendingPathComponent("none")).list().isEmpty)
            let (state, _) = try playedState()
            try store.open(slot: "older").writeFull(SaveSnapshot(state: pack.initialState, label: "Old"))
            clock.advance(10)
            try store.open(slot: "newer").writeFull(SaveSnapshot(state: state, playTime: .seconds(42), label: "New"))
            _ = try store.open(slot: "empty")
            try Data("hello".utf8).write(to: folder.appendingPathComponent("junk.parley"))
            try Data("ignored".utf8).write(to: folder.appendingPathComponent("notes.txt"))

            let list = store.list()
            #expect(list.map(\.slot) == ["newer", "older", "empty", "junk"])
            #expect(list[0].metadata?.label == "New")
            #expect(list[0].metadata?.locationName == "Smithy")
            #expect(list[0].metadata?.playTime == .seconds(42))
            #expect(list[2].metadata == nil && list[2].error == nil)
            #expect(list[3].error?.code == .notASave)

            try store.delete(slot: "older")
            #expect(!store.exists(slot: "older"))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("older.parley-wal").path))
            #expect(try #require(throws: SaveGameError.self) { try store.delete(slot: "older") }.code == .notFound)
            #expect(store.list().map(\.slot) == ["newer", "empty", "junk"])
        }
    }
}
