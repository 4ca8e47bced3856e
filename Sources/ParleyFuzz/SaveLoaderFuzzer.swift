import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyHost
import ParleySQLite
import SaveGames
import SyntheticWorlds

/// Fuzzes the save loader with seeded damage to a real save file on disk, and loads each damaged file the way the
/// game does: `SaveGameStore.open(slot:access: .readOnly)`, `load(pack:)`, every conversation, the feedback and
/// recordings, and the JSON export; on a share of inputs the slot listing too.
///
/// Two kinds of damage: bytes of the file (overwritten, flipped, inserted, deleted, the file cut short, the header
/// hit), and values in its rows (a transcript entry's JSON, an offer, a metadata value, a quantity or a position
/// changed, set to `NULL` or to a value of another type; a row deleted; a table dropped; the schema version
/// raised). Each input must load, or fail with a ``SaveGames/SaveGameError`` whose description says what is wrong;
/// and opening a file read-only must never change it.
///
/// ```swift
/// let summary = try SaveLoaderFuzzer.run(iterations: 2_000, seed: 1)
/// ```
public enum SaveLoaderFuzzer {
    /// The world of the fuzzed save.
    static let pack = SyntheticWorld.generate(seed: 21, locations: 3, npcs: 4, items: 8)
    /// A fixed clock, so the save's bytes are the same on every run.
    static let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_750_000_000) }

    /// Runs the fuzzer in a temporary folder, removed afterwards.
    ///
    /// - Parameters:
    ///   - iterations: How many damaged files to load.
    ///   - seed: The seed; the same seed gives the same damage.
    /// - Returns: What happened.
    /// - Throws: When the pristine save cannot be written or the temporary folder cannot be used (not a finding:
    ///   the fuzzer could not start).
    public static func run(iterations: Int, seed: UInt64) throws -> FuzzSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = FuzzSummary(target: "save loader", seed: seed)
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("parley-fuzz-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: root) }
        let pristine = try pristineSave(in: root.appendingPathComponent("pristine"))
        let folder = root.appendingPathComponent("fuzz")
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = SaveGameStore(folder: folder, now: now)
        let url = try store.slotURL("fuzz")
        var mutator = Mutator(seed: seed, words: TranscriptDecoderFuzzer.words + ["parley-save", "SQLite format 3"])

        for iteration in 0..<iterations {
            summary.iterations += 1
            for suffix in ["-wal", "-shm", "-journal"] { try? manager.removeItem(atPath: url.path + suffix) }
            let description: String
            if iteration % 3 == 2 {
                try Data(pristine).write(to: url)
                description = damageRows(at: url, &mutator)
            } else {
                let bytes = damageBytes(pristine, &mutator)
                try Data(bytes).write(to: url)
                description = "bytes: " + FuzzFinding.excerpt(bytes.prefix(16), limit: 16)
            }
            let before = manager.contents(atPath: url.path)
            let outcome = attemptLoad(store: store, listing: iteration % 4 == 0)
            if manager.contents(atPath: url.path) != before {
                summary.record(
                    .init(iteration: iteration, problem: "opening the save read-only changed it", excerpt: description))
            }
            switch outcome {
            case .loaded: summary.accepted += 1
            case .rejected: summary.rejected += 1
            case .unclear(let problem):
                summary.record(.init(iteration: iteration, problem: problem, excerpt: description))
            }
        }
        summary.duration = clock.now - start
        return summary
    }

    // MARK: - The pristine save

    /// Writes a save with every kind of row (the player, NPCs, locations, three conversations with annotations,
    /// a pending offer, a feedback report and a recording) and returns its bytes.
    static func pristineSave(in folder: URL) throws -> [UInt8] {
        let store = SaveGameStore(folder: folder, now: now)
        let url = try store.slotURL("pristine")
        do {
            let file = try store.open(slot: "pristine")
            var state = pack.initialState
            let npc = NPCID("npc_1")
            if let from = state.world.npcs[npc]?.location {
                let to = state.world.locations.keys.sorted().first { $0 != from } ?? from
                try state.apply(.npcMoved(npc: npc, from: from, to: to))
            }
            let entries = try FuzzCorpus.richEntries().map { try Transcript.Entry(jsonValue: $0) }
            var conversations: [NPCID: AnnotatedTranscript] = [:]
            for id in ["npc_0", "npc_1", "npc_2"] {
                conversations[NPCID(id)] = AnnotatedTranscript(
                    transcript: Transcript(entries: entries),
                    annotations: [String: String](annotations: [
                        .npc: id, .modelID: "scripted", .modelVersion: "1.abc",
                    ]),
                    turnAnnotations: [
                        "prompt-1": [String: String](annotations: [.player: "Ada", .gold: "14", .location: "loc_0"])
                    ])
            }
            let seller = state.world.npcs[NPCID("npc_2")]
            let offer = TradeOffer(
                npc: NPCID("npc_2"), playerGives: TradeSide(gold: 5),
                npcGives: TradeSide(items: seller?.inventory.stacks.prefix(1).map { $0 } ?? []))
            try file.writeFull(
                SaveSnapshot(
                    state: state, conversations: conversations,
                    pendingOffers: [NPCID("npc_2"): SavedOffer(offer: offer, summary: "A trade.")],
                    playTime: .seconds(754), label: "Fuzz"))
            let report = FeedbackAttachment(
                id: "report-1", createdAt: now(), sentiment: .negative,
                issues: [.init(category: .incorrect, explanation: "Unexpected trade offer.")], desiredOutput: nil,
                transcript: Transcript(entries: entries), modelID: "scripted", modelVersion: "1.abc",
                context: ["npc": "npc_0"])
            try file.addFeedback(
                id: report.id, npc: NPCID("npc_0"), createdAt: now(),
                json: String(decoding: report.jsonData(), as: UTF8.self))
            try file.addRecording(id: "recording-1", npc: NPCID("npc_1"), createdAt: now(), json: #"{"turns":[]}"#)
        }
        // The file is closed: its write-ahead log is folded into it.
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw SaveGameError(.cannotOpen, path: url.path, detail: "the pristine save was not written")
        }
        return Array(data)
    }

    // MARK: - Damage

    /// Damages the file's bytes: SQLite-aware overwrites (the header, page headers, anywhere), or the generic
    /// mutations, which also insert and delete bytes and cut the file short.
    static func damageBytes(_ pristine: [UInt8], _ mutator: inout Mutator) -> [UInt8] {
        var bytes = pristine
        switch mutator.below(5) {
        case 0:
            // The 100-byte database header: page size, counts, schema cookie, text encoding.
            for _ in 0..<(1 + mutator.below(3)) {
                bytes[mutator.below(100)] = UInt8(truncatingIfNeeded: mutator.random.next())
            }
        case 1:
            // A page header: the page type, the first freeblock, the cell count, the cell content area.
            let pages = max(1, bytes.count / 4096)
            let offset = mutator.below(pages) * 4096 + (mutator.oneIn(4) ? 100 : 0) + mutator.below(12)
            if offset < bytes.count { bytes[offset] = UInt8(truncatingIfNeeded: mutator.random.next()) }
        case 2:
            // A run of random bytes anywhere.
            let offset = mutator.below(bytes.count)
            for index in offset..<min(bytes.count, offset + 1 + mutator.below(32)) {
                bytes[index] = UInt8(truncatingIfNeeded: mutator.random.next())
            }
        case 3:
            // Cut short, often on a page boundary.
            let pages = max(1, bytes.count / 4096)
            let cut = mutator.oneIn(2) ? mutator.below(pages) * 4096 : mutator.below(bytes.count)
            bytes.removeSubrange(cut...)
        default:
            bytes = mutator.mutate(bytes, maximum: 3)
        }
        return bytes
    }

    /// The columns whose values the row damage changes: table, column, and whether it holds JSON.
    static let columns: [(table: String, column: String, isJSON: Bool)] = [
        ("transcript_entries", "json", true), ("transcript_entries", "json", true),
        ("transcript_entries", "json", true),
        ("transcript_entries", "position", false), ("transcript_entries", "entry_id", false),
        ("transcript_entries", "npc", false), ("conversations", "entry_count", false), ("conversations", "npc", false),
        ("metadata", "value", false), ("metadata", "value", false), ("metadata", "key", false),
        ("pending_offers", "offer_json", true), ("pending_offers", "npc", false), ("player", "gold", false),
        ("player", "location", false), ("npcs", "location", false), ("npcs", "gold", false),
        ("npc_items", "quantity", false), ("npc_items", "item", false), ("location_items", "item", false),
        ("player_items", "item", false), ("turn_annotations", "value", false), ("feedback", "json", true),
        ("recordings", "json", true), ("conversation_annotations", "value", false),
    ]

    /// Damages the save's rows through SQLite, without the constraints the save sets (foreign keys off; `CHECK`
    /// constraints still hold, so some changes are refused and the file stays as it was). Returns what it did.
    static func damageRows(at url: URL, _ mutator: inout Mutator) -> String {
        do {
            let db = try Database(
                path: url.path,
                options: DatabaseOptions(access: .readWrite, synchronous: .off, foreignKeys: false))
            switch mutator.below(12) {
            case 0:
                let tables = [
                    "player", "npcs", "conversations", "transcript_entries", "metadata", "pending_offers", "feedback",
                    "locations",
                ]
                let table = tables[mutator.below(tables.count)]
                try db.execute(sql: "DROP TABLE \(table)")
                return "dropped \(table)"
            case 1:
                let version = [0, 2, 99, -1][mutator.below(4)]
                try db.execute(sql: "PRAGMA user_version = \(version)")
                return "user_version \(version)"
            case 2:
                let table = columns[mutator.below(columns.count)].table
                let count = try db.scalar("SELECT count(*) FROM \(table)", as: Int.self) ?? 0
                try db.execute(
                    "DELETE FROM \(table) WHERE rowid = (SELECT rowid FROM \(table) ORDER BY rowid LIMIT 1 OFFSET ?)",
                    [mutator.below(count)])
                return "deleted a row of \(table)"
            default:
                let (table, column, isJSON) = columns[mutator.below(columns.count)]
                let count = try db.scalar("SELECT count(*) FROM \(table)", as: Int.self) ?? 0
                guard count > 0 else { return "\(table) is empty" }
                let offset = mutator.below(count)
                let rowid =
                    try db.scalar(
                        "SELECT rowid FROM \(table) ORDER BY rowid LIMIT 1 OFFSET ?", [offset], as: Int.self) ?? 0
                let old = try db.scalar(
                    "SELECT CAST(\(column) AS TEXT) FROM \(table) WHERE rowid = ?", [rowid], as: String.self)
                let value: (any SQLiteValueConvertible)?
                switch mutator.below(isJSON ? 8 : 6) {
                case 0: value = nil
                case 1: value = [-1, 0, Int.max, Int.min, 4096][mutator.below(5)]
                case 2: value = Data([0xFF, 0x00, 0xC3])
                case 3: value = ""
                default: value = String(decoding: mutator.mutate(Array((old ?? "").utf8), maximum: 3), as: UTF8.self)
                }
                do {
                    try db.execute("UPDATE \(table) SET \(column) = ? WHERE rowid = ?", [value, rowid])
                } catch {
                    return "\(table).\(column) kept (the change broke a constraint)"
                }
                return "\(table).\(column) of row \(rowid): "
                    + String(describing: value.map { "\($0)" } ?? "NULL").prefix(80)
            }
        } catch {
            return "no damage (\(error))"
        }
    }

    // MARK: - Loading

    /// What loading a damaged save did.
    enum Outcome {
        case loaded
        case rejected
        case unclear(String)
    }

    /// Loads a slot (`fuzz` by default) the way the game does, and everything in it.
    static func attemptLoad(store: SaveGameStore, slot: String = "fuzz", listing: Bool) -> Outcome {
        if listing {
            let slots = store.list()
            if slots.count != 1 { return .unclear("the listing has \(slots.count) slots, not 1") }
            if let slot = slots.first, slot.metadata == nil, let error = slot.error, "\(error)".isEmpty {
                return .unclear("the listing gives an error without a description")
            }
        }
        do {
            let file = try store.open(slot: slot, access: .readOnly)
            let loaded = try file.load(pack: pack)
            for npc in loaded.conversations { _ = try file.transcript(npc: npc) }
            _ = try file.conversationLengths()
            _ = try file.feedback()
            _ = try file.recordings()
            _ = try file.export()
            return .loaded
        } catch let error as SaveGameError {
            let text = error.description.trimmingCharacters(in: .whitespaces)
            return text.isEmpty || error.detail.isEmpty ? .unclear("a SaveGameError without a description") : .rejected
        } catch {
            return .unclear("threw \(type(of: error)), not a SaveGameError: \(error)")
        }
    }
}
