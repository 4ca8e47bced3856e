import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyHost
import ParleySQLite
import SaveGames
import ScriptedModel

/// Scenario 8: how much a save grows per turn over a long conversation, once context trims have put a summary and
/// facts into the NPC's instructions: 1,000 turns with Mira on the scripted model, autosaved after every turn as in
/// play.
enum SaveGrowth {
    /// The lines the player says, in turn.
    static let lines = [
        "how much is the lantern?", "what else do you sell?", "tell me about the town", "nice weather today",
        "do you have any rope?", "what's your name?", "I'm looking for a locket", "any news from the mill?",
    ]

    static func run(quick: Bool) async throws {
        let turns = quick ? 200 : 1_000
        report("## 8. Save growth over \(turns) turns of one conversation, with context trims")
        report("")
        let pack = try BenchContent.shippedPack()
        let folder = try BenchContent.temporaryFolder("growth")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SaveGameStore(folder: folder)
        // The scripted model's own window (32,768 tokens), as in play: the first trim comes after a few hundred
        // turns, and from then on every turn's instructions carry a summary and facts of several thousand tokens.
        let host = GameHost(
            pack: pack, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }, store: store)
        await host.begin(continuing: false) { _ in }
        await host.perform("talk to mira") { _ in }
        var sizes: [(turn: Int, bytes: Int)] = []
        let url = try store.slotURL("autosave")
        /// The bytes the save's pages in use take, read through SQLite (the write-ahead log included).
        func bytes() throws -> Int {
            let db = try Database(path: url.path, options: DatabaseOptions(access: .readOnly))
            let pages = try db.scalar("PRAGMA page_count", as: Int.self) ?? 0
            let free = try db.scalar("PRAGMA freelist_count", as: Int.self) ?? 0
            return (pages - free) * (try db.scalar("PRAGMA page_size", as: Int.self) ?? 0)
        }
        for turn in 1...turns {
            await host.perform(lines[turn % lines.count]) { _ in }
            if turn == turns / 10 || turn == turns / 2 { sizes.append((turn, try bytes())) }
        }
        await host.close()
        sizes.append((turns, try bytes()))
        let save = try store.open(slot: "autosave", access: .readOnly)
        let recordings = try save.recordings()
        let inflated = recordings.reduce(0) { $0 + $1.json.utf8.count }
        let db = try Database(path: url.path, options: DatabaseOptions(access: .readOnly))
        let stored = try db.scalar("SELECT sum(length(json)) FROM recordings", as: Int.self) ?? 0
        let parts = try db.scalar("SELECT sum(length(json)) FROM recording_parts", as: Int.self) ?? 0
        let partCount = try db.scalar("SELECT count(*) FROM recording_parts", as: Int.self) ?? 0

        var tables: [(String, Int)] = []
        for (table, column) in [
            ("transcript_entries", "json"), ("recordings", "json"), ("recording_parts", "json"),
            ("turn_annotations", "value"), ("feedback", "json"),
        ] {
            tables.append((table, try db.scalar("SELECT coalesce(sum(length(\(column))), 0) FROM \(table)", as: Int.self) ?? 0))
        }
        report("| After turn | Save KB (pages in use) | KB per turn since the start |")
        report("|---:|---:|---:|")
        for (turn, size) in sizes {
            report("| \(turn) | \(format(Double(size) / 1024, digits: 0)) | \(format(Double(size) / 1024 / Double(turn), digits: 1)) |")
        }
        let late = sizes.count >= 2 ? Double(sizes[sizes.count - 1].bytes - sizes[sizes.count - 2].bytes)
            / Double(sizes[sizes.count - 1].turn - sizes[sizes.count - 2].turn) : .nan
        report("")
        report(
            "Where the bytes are, per turn: "
                + tables.map { "\($0.0) \(format(Double($0.1) / 1024 / Double(turns), digits: 2)) KB" }.joined(separator: ", ")
                + ".")
        report(
            "Recordings: \(recordings.count), \(format(Double(stored + parts) / 1_048_576, digits: 1)) MB stored, with "
                + "\(partCount) shared parts (the instructions after each trim, the game states) kept once in "
                + "\(format(Double(parts) / 1024, digits: 0)) KB; against "
                + "\(format(Double(inflated) / 1_048_576, digits: 1)) MB with them inline in every recording, as before "
                + "(\(format(Double(inflated) / Double(max(1, stored + parts)), digits: 1))× more).")
        report(
            "Target: a few KB per turn once a summary exists: \(format(late / 1024, digits: 1)) KB per turn over the "
                + "second half, \(verdict(late <= 8 * 1024)).")
        report("")
    }
}
