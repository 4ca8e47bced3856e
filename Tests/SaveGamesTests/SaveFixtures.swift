import Foundation
import GameWorld
import LanguageModels
import ParleySQLite
import SaveGames
import Testing

/// The checked-in save files of `Fixtures/` and the deterministic generator that made them.
///
/// `schema-v<N>.sqlite` is a save written by schema version N, the first time that version shipped; once
/// released it is never recorded again, so that every future version is tested against what players really have.
/// The unusable fixtures (corrupt, truncated, future, foreign files) are derived from the newest one.
///
/// Record missing fixtures with `PARLEY_RECORD_FIXTURES=1 swift test --filter SaveGamesTests.FixtureTests`; review
/// them in the diff like code. (The files end in `.sqlite`, not `.parley`, which `.gitignore` ignores.)
enum SaveFixtures {
    /// Whether this run records fixtures.
    static var isRecording: Bool { ProcessInfo.processInfo.environment["PARLEY_RECORD_FIXTURES"] == "1" }

    /// The file of schema version `version`'s fixture.
    static func schemaFixture(version: Int) -> URL {
        TestPaths.fixtures.appendingPathComponent("schema-v\(version).sqlite")
    }

    // MARK: - The game in the fixtures

    /// The state the fixtures hold: the player took the apples, walked to the smithy and gave Brannoc bread;
    /// Mira went down to the cellar. From schema version 2, the story too: a flag, a counter, two attitudes, a quest
    /// stage and a beat that fired. From schema version 5, a swap at Mira's stall before the walk: an apple and gold
    /// for a lantern (its `tradedIn` dealing needs version 5).
    ///
    /// - Parameter version: The fixture's schema version; the newest by default.
    static func state(version: Int = SaveGameStore.schemaVersion) throws -> GameState {
        let story: [GameEvent] =
            version < 2
            ? []
            : [
                .setFlag(name: "met_mira"), .changedCounter(name: "visits", by: 2),
                .changedAttitude(npc: "mira", by: 10), .changedAttitude(npc: "brannoc", by: -5),
                .advancedQuest(quest: "key", to: "asked"), .firedBeat(npc: "mira", beat: "hello"),
            ]
        let state = try GameState.replaying(
            [
                .tookItem(item: "apple", quantity: 3, from: "square"),
            ] + (version < 5 ? [] : [swap]) + [
                .moved(from: "square", to: "smithy"),
                .gave(item: "bread", quantity: 1, to: "brannoc"),
                .npcMoved(npc: "mira", from: "square", to: "cellar"),
            ] + story, from: SaveTestWorld.pack().initialState)
        guard version < 4 else { return state }
        // Dealings are saved from version 4 on: the gift to Brannoc is in the state, not in an older save.
        var older = state.story
        older.dealings = [:]
        return GameState(world: state.world, player: state.player, story: older)
    }

    /// The swap of the fixtures from version 5 on: the player trades in an apple and pays 20 gold for a lantern.
    static let swap = GameEvent.traded(
        offer: TradeOffer(
            npc: "mira", playerGives: TradeSide(items: [ItemStack("apple")], gold: 20),
            npcGives: TradeSide(items: [ItemStack("lantern")])))

    /// The conversations the fixtures hold.
    static let conversations: [NPCID: AnnotatedTranscript] = [
        "mira": SampleTranscripts.conversation("mira", turns: 2),
        "brannoc": SampleTranscripts.conversation("brannoc"),
    ]

    /// The pending offer the fixtures hold.
    static let offer = SavedOffer(
        offer: .buying("lantern", from: "mira", for: 24), summary: "Mira offers 1 Lantern for 24 gold.")

    /// Two recordings whose long `instructions` are the same (schema version 3 stores them once), by id.
    static let sharingRecordings: KeyValuePairs<String, String> = {
        let notes = String(repeating: "Mira sold the player a lantern for 20 gold. ", count: 12)
        let instructions =
            #"{"id":"i-1","role":"instructions","contents":[{"text":{"value":"You are Mira. \#(notes)"}}]}"#
        return [
            "recording-2":
                #"{"type":"Parley.TurnRecording","id":"recording-2","instructions":\#(instructions),"turn":1}"#,
            "recording-3":
                #"{"type":"Parley.TurnRecording","id":"recording-3","instructions":\#(instructions),"turn":2}"#,
        ]
    }()

    /// Writes the fixture save into `folder` as `slot.parley`, with the current code, and returns its file once
    /// closed (the write-ahead log folded into it).
    static func generate(in folder: URL) throws -> URL {
        let store = SaveGameStore(folder: folder, now: fixedNow)
        do {
            let save = try store.open(slot: "slot")
            try save.writeFull(
                SaveSnapshot(
                    state: try state(), conversations: conversations, pendingOffers: ["mira": offer],
                    playTime: .milliseconds(754_250), label: "Fixture", parleyVersion: "0.1.0"))
            try save.addFeedback(id: "feedback-1", npc: "mira", json: #"{"sentiment":"negative","issues":[]}"#)
            try save.addRecording(id: "recording-1", npc: "brannoc", json: #"{"turns":[]}"#)
            // From schema version 3: two turns taken between the same two trims share their instructions, which
            // the save keeps once.
            for (id, json) in sharingRecordings { try save.addRecording(id: id, npc: "mira", json: json) }
            // An autosave on top, as a game would leave it.
            let next = SampleTranscripts.continuing(conversations["brannoc"]!, npc: "brannoc", turn: 1)
            try save.autosave(
                SaveDelta(
                    state: try state(), conversations: ["brannoc": next], playTime: .milliseconds(800_000),
                    parleyVersion: "0.1.0"))
        }
        return try store.slotURL("slot")
    }

    /// The conversations after the generator's autosave.
    static var savedConversations: [NPCID: AnnotatedTranscript] {
        var saved = conversations
        saved["brannoc"] = SampleTranscripts.continuing(conversations["brannoc"]!, npc: "brannoc", turn: 1)
        return saved
    }

    // MARK: - Unusable fixtures

    /// A file that cannot be opened as a save, and the error it must give.
    struct Unusable: Sendable, CustomTestStringConvertible {
        let name: String
        let code: SaveGameError.Code
        /// Words the error's description must contain: what to do.
        let advice: String
        var testDescription: String { name }
    }

    static let unusable: [Unusable] = [
        Unusable(name: "corrupt.sqlite", code: .corrupt, advice: "Restore it from a backup"),
        Unusable(name: "truncated.sqlite", code: .truncated, advice: "Copy the save again"),
        Unusable(name: "future-schema.sqlite", code: .newerSchema, advice: "update Parley"),
        Unusable(name: "not-a-save.png", code: .notASave, advice: "move the file out of the save folder"),
        Unusable(name: "not-a-save.txt", code: .notASave, advice: "move the file out of the save folder"),
        Unusable(name: "foreign.sqlite", code: .notASave, advice: "move the file out of the save folder"),
    ]

    /// Writes the unusable fixtures, derived from the newest schema fixture.
    static func recordUnusable() throws {
        let source = schemaFixture(version: SaveGameStore.schemaVersion)
        let bytes = try Data(contentsOf: source)
        try withTemporaryDirectory { folder in
            // A migration this version does not know, as a newer Parley would have applied.
            let future = folder.appendingPathComponent("future.sqlite")
            try bytes.write(to: future)
            do {
                let db = try Database(path: future.path)
                try db.execute(
                    "INSERT INTO schema_migrations(id) VALUES (?)",
                    ["\(SaveGameStore.schemaVersion + 1)-from-the-future"])
                try db.setUserVersion(SaveGameStore.schemaVersion + 1)
            }
            try Data(contentsOf: future).write(to: TestPaths.fixtures.appendingPathComponent("future-schema.sqlite"))

            // Garbage over the root page of the transcript entries' index: the header and schema still read.
            var corrupt = bytes
            let copy = folder.appendingPathComponent("copy.sqlite")
            try bytes.write(to: copy)
            let db = try Database(path: copy.path, options: DatabaseOptions(access: .readOnly))
            let pageSize = try db.scalar("PRAGMA page_size", as: Int.self)!
            let root = try db.scalar(
                "SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_transcript_entries_1'", as: Int.self)!
            let start = (root - 1) * pageSize
            for offset in 0..<pageSize { corrupt[start + offset] = UInt8(truncatingIfNeeded: offset &* 7 &+ 3) }
            try corrupt.write(to: TestPaths.fixtures.appendingPathComponent("corrupt.sqlite"))

            // The first half, as after an interrupted copy.
            try bytes.prefix(bytes.count / 2).write(to: TestPaths.fixtures.appendingPathComponent("truncated.sqlite"))

            // Another program's database.
            let foreign = folder.appendingPathComponent("foreign.sqlite")
            do {
                let db = try Database(path: foreign.path, options: DatabaseOptions(journalMode: .delete))
                try db.execute(
                    sql: """
                        CREATE TABLE photos(id INTEGER PRIMARY KEY, path TEXT NOT NULL, taken_at TEXT);
                        INSERT INTO photos(path, taken_at) VALUES ('beach.jpg', '2024-07-01'), ('cat.png', NULL);
                        """)
            }
            try Data(contentsOf: foreign).write(to: TestPaths.fixtures.appendingPathComponent("foreign.sqlite"))
        }
        // A 1×1 PNG image and a text file someone saved with the wrong name.
        let png: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
            0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00,
            0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF,
            0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
        ]
        try Data(png).write(to: TestPaths.fixtures.appendingPathComponent("not-a-save.png"))
        try Data("Slot 1\nturn = 12\nlocation = smithy\n".utf8).write(
            to: TestPaths.fixtures.appendingPathComponent("not-a-save.txt"))
    }
}
