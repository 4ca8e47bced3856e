import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ParleyEngine
import ParleyHost
import ParleySQLite
import SaveGames
import Synchronization

/// Fuzzes whole games with saves that are valid SQLite and valid Parley saves but tampered with: numbers out of their
/// range (gold or a quantity at `Int.max`, negative, past the maxima), values of the wrong type (text where a number
/// belongs, a blob, a real), a save of another world or another version of the content pack, pending offers with
/// absurd terms or unknown items, rows naming things the pack lacks.
///
/// Each input is read the way `parley saves` does, then played: a ``ParleyHost/GameHost`` continues it (as
/// `parley play --continue` does), takes a few turns (looking, taking, moving, accepting the pending offer, talking)
/// and saves. Every input must load, or be refused with a ``SaveGames/SaveGameError`` that says what is wrong; a
/// refused save must stay byte for byte as it was while the new game plays beside it; and nothing may crash (a
/// crash ends the process, so a run that returns had none).
///
/// ```swift
/// let summary = try await SaveTamperFuzzer.run(iterations: 200, seed: 1)
/// ```
public enum SaveTamperFuzzer {
    /// The tamperings, each a few SQL statements run with constraints off; `%INT%` is replaced by one of
    /// ``extremes``.
    static let tamperings: [(name: String, sql: String)] = [
        ("player gold", "UPDATE player SET gold = %INT%"),
        ("NPC gold", "UPDATE npcs SET gold = %INT% WHERE rowid = (SELECT min(rowid) FROM npcs)"),
        ("player quantity", "UPDATE player_items SET quantity = %INT%"),
        ("NPC quantity", "UPDATE npc_items SET quantity = %INT% WHERE rowid = (SELECT min(rowid) FROM npc_items)"),
        ("location quantity", "UPDATE location_items SET quantity = %INT%"),
        ("counter", "INSERT OR REPLACE INTO counters(name, value) VALUES ('visits', %INT%)"),
        ("attitude", "INSERT OR REPLACE INTO attitudes(npc, value) VALUES ('npc_0', %INT%)"),
        ("beat count", "INSERT OR REPLACE INTO beats(npc, beat, count) VALUES ('npc_0', 'hello', %INT%)"),
        ("gold as text", "UPDATE player SET gold = 'a lot'"),
        ("gold as a real", "UPDATE player SET gold = 12.75"),
        ("gold as a blob", "UPDATE player SET gold = x'00ff'"),
        ("quantity as text", "UPDATE npc_items SET quantity = 'two'"),
        ("location as a number", "UPDATE player SET location = 42"),
        ("NULL name", "UPDATE player SET name = NULL"),
        ("another world", "UPDATE metadata SET value = 'another_world' WHERE key = 'world_id'"),
        ("another content version", "UPDATE metadata SET value = '00000000deadbeef' WHERE key = 'content_hash'"),
        ("unknown location", "UPDATE player SET location = 'the_moon'"),
        ("unknown item", "INSERT INTO player_items(item, quantity) VALUES ('unicorn', 1)"),
        ("unknown NPC", "INSERT INTO npcs(id, location, gold) VALUES ('ghost', 'loc_0', 5)"),
        (
            "offer of absurd gold",
            #"UPDATE pending_offers SET offer_json = '{"npc":"npc_2","playerGives":{"gold":%INT%},"npcGives":{"items":[{"item":"item_0","quantity":1}]}}'"#
        ),
        (
            "offer of absurd quantity",
            #"UPDATE pending_offers SET offer_json = '{"npc":"npc_2","playerGives":{"gold":1},"npcGives":{"items":[{"item":"item_0","quantity":%INT%}]}}'"#
        ),
        (
            "offer of an unknown item",
            #"UPDATE pending_offers SET offer_json = '{"npc":"npc_2","npcGives":{"items":[{"item":"unicorn","quantity":1}]}}'"#
        ),
        ("offer of another NPC", #"UPDATE pending_offers SET npc = 'npc_0'"#),
        ("play time", "UPDATE metadata SET value = '%INT%' WHERE key = 'play_time_seconds'"),
        ("entry count", "UPDATE conversations SET entry_count = %INT%"),
        ("dropped table", "DROP TABLE npc_items"),
    ]

    /// The numbers `%INT%` becomes.
    static let extremes = [
        Int.max, Int.min, -1, 0, 1_000_000_001, 10_001, 2_147_483_648, Int.max - 1, -1_000_000_000,
    ]

    /// The turns played on each tampered save.
    static let turns = [
        "look", "inventory", "offers", "accept", "take item_0", "go north", "go south", "talk to npc_0",
        "hello there", "give item_1 to npc_0", "save fuzz-manual", "load fuzz-manual", "saves",
    ]

    /// Runs the fuzzer in a temporary folder, removed afterwards.
    ///
    /// - Parameters:
    ///   - iterations: How many tampered saves to play.
    ///   - seed: The seed; the same seed gives the same tamperings.
    /// - Returns: What happened.
    /// - Throws: When the pristine save cannot be written (not a finding: the fuzzer could not start).
    public static func run(iterations: Int, seed: UInt64) async throws -> FuzzSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = FuzzSummary(target: "tampered saves, played", seed: seed)
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("parley-tamper-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: root) }
        let pristine = try SaveLoaderFuzzer.pristineSave(in: root.appendingPathComponent("pristine"))
        var mutator = Mutator(seed: seed, words: [])
        let model = MockLanguageModel { _ in .text("Hm.") }

        for iteration in 0..<iterations {
            // Each input is seconds of work that may never suspend: let the other tasks of the pool have a turn.
            await Task.yield()
            summary.iterations += 1
            let folder = root.appendingPathComponent("game-\(iteration)")
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = SaveGameStore(folder: folder, now: SaveLoaderFuzzer.now)
            let url = try store.slotURL("autosave")
            try Data(pristine).write(to: url)
            let description = tamper(url, &mutator)
            let tampered = manager.contents(atPath: url.path)

            // Read as `parley saves` and `--continue` do.
            var refused = false
            switch SaveLoaderFuzzer.attemptLoad(store: store, slot: "autosave", listing: true) {
            case .loaded: summary.accepted += 1
            case .rejected:
                summary.rejected += 1
                refused = true
            case .unclear(let problem):
                summary.record(.init(iteration: iteration, problem: problem, excerpt: description))
                continue
            }
            // Played.
            let host = GameHost(pack: SaveLoaderFuzzer.pack, models: { _, _ in model }, store: store)
            let problems = Problems()
            await host.begin(continuing: true, output: problems.record)
            for turn in turns { await host.perform(turn, output: problems.record) }
            await host.close()
            if refused {
                if manager.contents(atPath: url.path) != tampered {
                    summary.record(
                        .init(
                            iteration: iteration, problem: "a save that failed to load was changed by the game",
                            excerpt: description))
                }
                if !problems.text.contains("Could not continue the game in slot autosave") {
                    summary.record(
                        .init(
                            iteration: iteration, problem: "the game did not say the save failed to load",
                            excerpt: description))
                }
            }
            if let unclear = problems.unclear {
                summary.record(.init(iteration: iteration, problem: unclear, excerpt: description))
            }
            try? manager.removeItem(at: folder)
        }
        summary.duration = clock.now - start
        return summary
    }

    /// Applies one tampering through SQLite, with foreign keys and `CHECK` constraints off, and says what it did.
    static func tamper(_ url: URL, _ mutator: inout Mutator) -> String {
        let (name, template) = tamperings[mutator.below(tamperings.count)]
        let number = extremes[mutator.below(extremes.count)]
        let sql = template.replacingOccurrences(of: "%INT%", with: String(number))
        do {
            let db = try Database(
                path: url.path, options: DatabaseOptions(access: .readWrite, synchronous: .off, foreignKeys: false))
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: sql)
            return "\(name): \(sql)"
        } catch {
            return "\(name): not applied (\(error))"
        }
    }

    /// The problems a game showed; an empty one is unclear.
    final class Problems: Sendable {
        private let shown = Mutex<[String]>([])

        @Sendable func record(_ output: GameOutput) {
            if case .problem(let text) = output { shown.withLock { $0.append(text) } }
        }

        var text: String { shown.withLock { $0.joined(separator: "\n") } }

        /// A problem shown without words, if any.
        var unclear: String? {
            shown.withLock { $0.contains { $0.trimmingCharacters(in: .whitespaces).isEmpty } }
                ? "the game showed a problem without words" : nil
        }
    }
}
