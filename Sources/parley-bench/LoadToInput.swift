import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import ParleyBasics
import ParleyEngine
import ParleyHost
import SaveGames
import ScriptedModel
import SyntheticWorlds

/// Scenario 3: loading a save of N NPCs, each with a 100-turn conversation, to the point where the game accepts
/// input, the way the CLI does it, and piece by piece; at two sizes (1,000 and 10,000 NPCs by default, or 1,000 NPCs
/// with conversations of 100 and 1,000 turns), to show how the load grows with the save.
///
/// `parley --continue` loads the content pack from its folder, then the host's `load autosave`: the slot opened
/// read-only (`store.open(slot:access:)`, with the checks every open makes), `load(pack:)` (the state laid over the
/// pack, checked; conversations are not read), the slot opened for writing as the autosave, the game restored, and
/// `look`. `load <slot>` of another slot also gives the autosave slot a copy of it (`SaveFile.copy(to:)` is that
/// copy, timed on its own). The first turn after `load` is timed too, since its autosave is the first write into
/// the autosave slot. A conversation is read when the player first talks to that NPC; that is timed on its own.
enum LoadToInput {
    /// The NPC counts a full run measures.
    static let defaultSizes = [1_000, 10_000]

    /// The NPC counts a quick run measures.
    static let quickSizes = [100, 1_000]

    /// The turns of each NPC's conversation.
    static let defaultTurns = 100

    /// What one size measured: the medians of the two targets.
    struct Result {
        var npcs: Int
        var turns: Int
        var megabytes: Double
        var continuing: Double
        var loading: Double
        var firstTurn: Double
    }

    /// Runs the scenario at each size, then reports how the load grows with the save.
    ///
    /// - Parameters:
    ///   - quick: Smaller sizes and fewer repetitions.
    ///   - sizes: The NPC counts; ``defaultSizes`` (``quickSizes`` with `quick`) when `nil`.
    ///   - turns: The turns of each NPC's conversation; each NPC count is measured with each.
    ///   - keep: A folder to keep the generated content and saves in, reused by later runs; a temporary folder
    ///     removed at the end when `nil`.
    static func run(quick: Bool, sizes: [Int]? = nil, turns: [Int] = [defaultTurns], keep: URL? = nil) async throws {
        let sizes = (sizes ?? (quick ? quickSizes : defaultSizes)).flatMap { npcs in turns.map { (npcs, $0) } }
        report("## 3. Loading a big save to the point where the game accepts input")
        report("")
        report("Load average before: \(loadAverage).")
        report("")
        var results: [Result] = []
        for (npcs, turns) in sizes {
            results.append(try await run(npcs: npcs, turns: turns, quick: quick, keep: keep))
        }
        report("### How the load grows with the save")
        report("")
        report("| NPCs | Turns | Save MB | `--continue` ms | in-game `load slot1` ms | first turn after `load` ms |")
        report("|---:|---:|---:|---:|---:|---:|")
        for result in results {
            report(
                "| \(result.npcs) | \(result.turns) | \(format(result.megabytes, digits: 1)) | "
                    + "\(format(result.continuing, digits: 1)) | \(format(result.loading, digits: 1)) | "
                    + "\(format(result.firstTurn, digits: 1)) |")
        }
        report("")
        if let small = results.first {
            let targetMet = small.continuing <= 50 && small.loading <= 50
            var line =
                "Target: ≤ 50 ms at \(small.npcs) NPCs × \(small.turns) turns: `--continue` "
                + "\(format(small.continuing, digits: 1)) ms, "
                + "`load slot1` \(format(small.loading, digits: 1)) ms, \(verdict(targetMet))"
            if results.count > 1, let large = results.last {
                let continuing = large.continuing / small.continuing
                let loading = large.loading / small.loading
                line +=
                    "; ≤ 1.3× at \(large.npcs) NPCs × \(large.turns) turns: `--continue` \(format(continuing, digits: 2))×, "
                    + "`load slot1` \(format(loading, digits: 2))×, \(verdict(continuing <= 1.3 && loading <= 1.3))"
            }
            report(line + ".")
            report("")
        }
        report("Load average after: \(loadAverage).")
        report("")
    }

    /// Measures one size.
    static func run(npcs: Int, turns: Int, quick: Bool, keep: URL?) async throws -> Result {
        let folder: URL
        if let keep {
            folder = keep.appendingPathComponent("load-\(npcs)x\(turns)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } else {
            folder = try BenchContent.temporaryFolder("load")
        }
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        let content = folder.appendingPathComponent("Content")
        if !FileManager.default.fileExists(atPath: content.appendingPathComponent(ContentPack.worldFileName).path) {
            try SyntheticWorld.write(seed: 3, locations: max(4, npcs / 20), npcs: npcs, items: 200, to: content)
        }
        let (packMilliseconds, pack) = try Measure.time { try ContentPack.load(from: content).get() }
        let store = SaveGameStore(folder: folder.appendingPathComponent("SaveGames"))
        let written = try writeSaveIfMissing(pack: pack, store: store, turns: turns)
        let size = (try FileManager.default.attributesOfItem(atPath: store.slotURL("slot1").path)[.size] as? Int) ?? 0
        let entries = try store.open(slot: "slot1", access: .readOnly).conversationLengths().values.reduce(0, +)

        let repetitions = quick ? 3 : 5
        var samples: [String: [Double]] = [:]
        let provider: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }
        let here = pack.initialState.npcsHere.first
        let start = pack.initialState.world.locations[pack.initialState.player.location]
        let firstMove = start?.exits.first.map { "go \($0.direction)" } ?? "look"
        for _ in 0..<repetitions {
            // What the CLI does: `parley --continue`, and the in-game `load slot1` followed by a first turn.
            let continuing = GameHost(pack: pack, models: provider, store: store)
            try await continuing.claimSaves()
            samples["continue", default: []].append(try await timedLoad(continuing, slot: "autosave"))
            await continuing.close()
            let loading = GameHost(pack: pack, models: provider, store: store)
            try await loading.claimSaves()
            samples["load", default: []].append(try await timedLoad(loading, slot: "slot1"))
            samples["firstTurn", default: []].append(
                await Measure.time { await loading.perform(firstMove) { _ in } }.milliseconds)
            await loading.close()
            // A new game never saves over the autosave slot, so the load went to a free one (`autosave-2`): remove it,
            // so that every run finds the same folder.
            let used = await loading.activeAutosaveSlot
            if used != "autosave" { try? store.delete(slot: used) }

            // The pieces.
            let (openMilliseconds, file) = try Measure.time { try store.open(slot: "slot1", access: .readOnly) }
            samples["open", default: []].append(openMilliseconds)
            let (loadMilliseconds, loaded) = try Measure.time { try file.load(pack: pack) }
            samples["state", default: []].append(loadMilliseconds)
            samples["copy", default: []].append(
                try Measure.time { try file.copy(to: store.slotURL("scratch")) }.milliseconds)
            samples["openWrite", default: []].append(
                try Measure.time { try store.openChecked(slot: "scratch").close() }.milliseconds)
            samples["game", default: []].append(
                await Measure.time {
                    let game = Game(
                        state: loaded.state, models: provider,
                        restoring: RestoredConversations(npcs: Set(loaded.conversations), pendingOffers: [:]) { _ in nil
                        })
                    await game.perform(.look) { _ in }
                }.milliseconds)
            if let npc = here?.id ?? loaded.conversations.first {
                samples["transcript", default: []].append(
                    try Measure.time { _ = try file.transcript(npc: npc) }.milliseconds)
            }
            file.close()
        }
        try? store.delete(slot: "scratch")
        func median(_ key: String) -> Double { Measure.median(samples[key] ?? []) }
        func shown(_ key: String) -> String { format(median(key), digits: 1) }
        let perNPC = entries / npcs
        let megabytes = Double(size) / 1_048_576
        report("### \(npcs) NPCs × \(turns) turns")
        report("")
        report(
            "Save: \(npcs) NPCs, \(entries) transcript entries (\(perNPC) per NPC), \(format(megabytes, digits: 1)) MB; "
                + (written.map { "written in \(format($0 / 1000, digits: 1)) s. " } ?? "kept from an earlier run. ")
                + "Content pack (\(npcs) NPCs) loaded from its folder in \(format(packMilliseconds, digits: 0)) ms "
                + "(not part of the target). Medians of \(repetitions) runs, warm file cache.")
        report("")
        report("| Step | Median ms |")
        report("|---|---:|")
        report("| `parley --continue`: host `load autosave` until the game takes input | \(shown("continue")) |")
        report("| in-game `load slot1` until the game takes input | \(shown("load")) |")
        report(
            "| … then the first turn (`\(firstMove)`) and its autosave, the first write to the autosave slot | \(shown("firstTurn")) |"
        )
        report("| … open read-only (`store.open(slot:access: .readOnly)`) | \(shown("open")) |")
        report("| … `load(pack:)`: the state over the pack | \(shown("state")) |")
        report("| … copy of the slot (`SaveFile.copy(to:)`) | \(shown("copy")) |")
        report("| … open the copy for writing (`openChecked`) | \(shown("openWrite")) |")
        report("| … restore the game and `look` | \(shown("game")) |")
        report("| First talk: read one NPC's conversation (\(perNPC) entries) | \(shown("transcript")) |")
        report("")
        return Result(
            npcs: npcs, turns: turns, megabytes: megabytes, continuing: median("continue"), loading: median("load"),
            firstTurn: median("firstTurn"))
    }

    /// Loads a slot through the host, as the CLI does, and returns the time until it is ready for input.
    static func timedLoad(_ host: GameHost, slot: String) async throws -> Double {
        let lines = LinesBox()
        let elapsed = await Measure.time { await host.perform("load \(slot)", output: lines.append) }.milliseconds
        guard lines.text.contains("Loaded") else { throw BenchError("load \(slot) failed: \(lines.text)") }
        return elapsed
    }

    /// Writes `slot1` (every NPC with a conversation of `turns` turns) and copies it to `autosave`, unless both are
    /// there from an earlier run; returns the time of the writes, or `nil` when nothing was written.
    ///
    /// The state is written by a full save, then the conversations by autosaves of a few hundred NPCs each, so that
    /// no more than those are in memory at once.
    static func writeSaveIfMissing(pack: ContentPack, store: SaveGameStore, turns: Int) throws -> Double? {
        if store.exists(slot: "slot1"), store.exists(slot: "autosave"),
            (try? store.open(slot: "slot1", access: .readOnly).metadata().label) == "Bench"
        {
            return nil
        }
        for slot in ["slot1", "autosave"] where store.exists(slot: slot) { try store.delete(slot: slot) }
        let state = pack.initialState
        let ids = state.world.npcs.keys.sorted()
        let file = try store.open(slot: "slot1")
        let elapsed = try Measure.time {
            try file.writeFull(SaveSnapshot(state: state, playTime: .seconds(3_600), label: "Bench"))
            var start = 0
            while start < ids.count {
                var conversations: [NPCID: AnnotatedTranscript] = [:]
                for id in ids[start..<min(ids.count, start + 250)] {
                    let name = state.world.name(of: id)
                    conversations[id] = AnnotatedTranscript(
                        transcript: SyntheticTranscript.make(turns: turns, speaker: name),
                        annotations: [String: String](annotations: [
                            .npc: id.rawValue, .npcName: name, .modelID: "scripted", .modelVersion: "1",
                        ]))
                }
                try file.autosave(SaveDelta(state: state, conversations: conversations, playTime: .seconds(3_600)))
                start += 250
            }
        }.milliseconds
        file.close()
        try store.open(slot: "slot1", access: .readOnly).copy(to: store.slotURL("autosave"))
        return elapsed
    }

    /// The system's load averages over 1, 5 and 15 minutes, as `/proc/loadavg` gives them.
    static var loadAverage: String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: ", ") + " (1, 5, 15 min)"
    }
}
