import Foundation
import GameWorld
import LanguageModels
import ParleyBasics
import ParleyEngine
import SaveGames
import ScriptedModel

/// Scenario 3: loading a save of 1,000 NPCs, each with a 100-turn conversation, to the point where the game
/// accepts input, the way the CLI does it, and piece by piece.
///
/// `parley --continue` loads the content pack from its folder, then the host's `load autosave`: the slot opened
/// read-only (inspected, with SQLite's `quick_check` over every page), `load(pack:)` (the state laid over the
/// pack; conversations are not read), the slot opened for writing as the autosave (not inspected again: it was
/// checked just now, and the folder is claimed), the game restored, and `look`. `load <slot>` of another slot also
/// copies it to the autosave slot (`VACUUM INTO`). A conversation is read when
/// the player first talks to that NPC; that is timed on its own.
enum LoadToInput {
    static func run(quick: Bool) async throws {
        let npcs = quick ? 100 : 1_000
        let turns = 100
        let folder = try BenchContent.temporaryFolder("load")
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = folder.appendingPathComponent("Content")
        try SyntheticWorld.write(seed: 3, locations: max(4, npcs / 20), npcs: npcs, items: 200, to: content)
        let (packMilliseconds, pack) = try Measure.time { try ContentPack.load(from: content).get() }
        let store = SaveGameStore(folder: folder.appendingPathComponent("SaveGames"))
        let (writeMilliseconds, entries) = try writeSave(pack: pack, store: store, turns: turns)
        let size = (try FileManager.default.attributesOfItem(atPath: store.slotURL("slot1").path)[.size] as? Int) ?? 0

        let repetitions = quick ? 3 : 5
        var samples: [String: [Double]] = [:]
        let provider: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }
        let here = pack.initialState.npcsHere.first
        for _ in 0..<repetitions {
            // What the CLI does: `parley --continue` and the in-game `load slot1`.
            let continuing = GameHost(pack: pack, models: provider, store: store)
            try await continuing.claimSaves()
            samples["continue", default: []].append(try await timedLoad(continuing, slot: "autosave"))
            await continuing.close()
            let loading = GameHost(pack: pack, models: provider, store: store)
            try await loading.claimSaves()
            samples["load", default: []].append(try await timedLoad(loading, slot: "slot1"))
            await loading.close()

            // The pieces.
            let (openMilliseconds, file) = try Measure.time { try store.open(slot: "slot1", access: .readOnly) }
            samples["open", default: []].append(openMilliseconds)
            let (loadMilliseconds, loaded) = try Measure.time { try file.load(pack: pack) }
            samples["state", default: []].append(loadMilliseconds)
            samples["copy", default: []].append(
                try Measure.time { try file.copy(to: store.slotURL("scratch")) }.milliseconds)
            samples["openWrite", default: []].append(
                try Measure.time { _ = try store.openChecked(slot: "scratch") }.milliseconds)
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
        }
        func median(_ key: String) -> String { format(Measure.median(samples[key] ?? []), digits: 1) }
        let perNPC = entries / npcs
        report("## 3. Loading a \(npcs)-NPC × \(turns)-turn save to the point where the game accepts input")
        report("")
        report(
            "Save: \(npcs) NPCs, \(entries) transcript entries (\(perNPC) per NPC), "
                + "\(format(Double(size) / 1_048_576, digits: 1)) MB; written in \(format(writeMilliseconds / 1000, digits: 1)) s. "
                + "Content pack (\(npcs) NPCs) loaded from its folder in \(format(packMilliseconds, digits: 0)) ms (not part of the target). "
                + "Medians of \(repetitions) runs, warm file cache.")
        report("")
        report("| Step | Median ms |")
        report("|---|---:|")
        report("| `parley --continue`: host `load autosave` until the game takes input | \(median("continue")) |")
        report("| in-game `load slot1` (also copies the slot to the autosave) | \(median("load")) |")
        report("| … open read-only (inspection with `quick_check` of every page) | \(median("open")) |")
        report("| … `load(pack:)`: the state over the pack | \(median("state")) |")
        report("| … copy to the autosave slot (`VACUUM INTO`) | \(median("copy")) |")
        report("| … open the copy for writing (checked just now: no second inspection) | \(median("openWrite")) |")
        report("| … restore the game and `look` | \(median("game")) |")
        report("| First talk: read one NPC's conversation (\(perNPC) entries) | \(median("transcript")) |")
        let continuing = Measure.median(samples["continue"] ?? [])
        let loading = Measure.median(samples["load"] ?? [])
        report("")
        report(
            "Target: ≤ 150 ms: `--continue` \(format(continuing, digits: 1)) ms, \(verdict(continuing <= 150))"
                + (continuing > 150 ? " (by \(format(continuing / 150, digits: 1))×)" : "")
                + "; `load slot1` \(format(loading, digits: 1)) ms, \(verdict(loading <= 150))"
                + (loading > 150 ? " (by \(format(loading / 150, digits: 1))×)" : "") + ".")
        report("")
    }

    /// Loads a slot through the host, as the CLI does, and returns the time until it is ready for input.
    static func timedLoad(_ host: GameHost, slot: String) async throws -> Double {
        let lines = LinesBox()
        let elapsed = await Measure.time { await host.perform("load \(slot)", output: lines.append) }.milliseconds
        guard lines.text.contains("Loaded") else { throw BenchError("load \(slot) failed: \(lines.text)") }
        return elapsed
    }

    /// Writes `slot1` (every NPC with a conversation of `turns` turns) and copies it to `autosave`; returns the
    /// time of the full save and the number of entries.
    static func writeSave(pack: ContentPack, store: SaveGameStore, turns: Int) throws -> (Double, Int) {
        let state = pack.initialState
        var conversations: [NPCID: AnnotatedTranscript] = [:]
        for id in state.world.npcs.keys {
            let name = state.world.name(of: id)
            conversations[id] = AnnotatedTranscript(
                transcript: SyntheticTranscript.make(turns: turns, speaker: name),
                annotations: ["npc": id.rawValue, "npc.name": name, "model.id": "scripted", "model.version": "1"])
        }
        let entries = conversations.values.reduce(0) { $0 + $1.transcript.count }
        let file = try store.open(slot: "slot1")
        let elapsed = try Measure.time {
            try file.writeFull(
                SaveSnapshot(state: state, conversations: conversations, playTime: .seconds(3_600), label: "Bench"))
        }.milliseconds
        try file.copy(to: store.slotURL("autosave"))
        return (elapsed, entries)
    }
}
