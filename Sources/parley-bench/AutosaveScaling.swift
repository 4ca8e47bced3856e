import Foundation
import GameWorld
import LanguageModels
import ParleyBasics
import ParleyEngine
import SaveGames
import SyntheticWorlds

/// Scenario 2: one autosave after one turn (one NPC's new entries and one state change), against the size of the
/// world: 10 to 10,000 NPCs, each with a conversation, beside the naive save (`NaiveSave`) in the same run.
enum AutosaveScaling {
    /// Entries in each NPC's conversation.
    static let entriesPerNPC = 24

    static func run(quick: Bool) throws {
        report("## 2. Autosave after one turn, against world size")
        report("")
        report(
            "| NPCs | Entries saved | Save file MB | Full save ms | Autosave median ms | Autosave p95 ms | Naive JSON MB | Naive median ms (fsync) | Naive median ms (no fsync) | Naive ÷ autosave |"
        )
        report("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        var autosaves: [Int: Double] = [:]
        var ratios: [Int: Double] = [:]
        for npcs in quick ? [10, 100, 1_000] : [10, 100, 1_000, 10_000] {
            let row = try measure(
                npcs: npcs, autosaves: quick ? 20 : 40, naiveRuns: npcs >= 10_000 ? 3 : (quick ? 3 : 7))
            autosaves[npcs] = Measure.median(row.autosave)
            ratios[npcs] = Measure.median(row.naive) / Measure.median(row.autosave)
            report(
                "| \(npcs) | \(row.entries) | \(format(row.fileMegabytes, digits: 1)) | \(format(row.fullSave, digits: 0)) "
                    + "| \(format(Measure.median(row.autosave), digits: 3)) | \(format(Measure.percentile(row.autosave, 95), digits: 3)) "
                    + "| \(format(row.naiveMegabytes, digits: 1)) | \(format(Measure.median(row.naive), digits: 1)) "
                    + "| \(format(Measure.median(row.naiveNoSync), digits: 1)) | \(format(ratios[npcs] ?? .nan, digits: 0))× |"
            )
        }
        let largest = quick ? 1_000 : 10_000
        let growth = (autosaves[largest] ?? .nan) / (autosaves[10] ?? .nan)
        let speedup = ratios[1_000] ?? .nan
        report("")
        report(
            "Target: ≤ 2× from 10 to \(largest) NPCs: \(format(growth, digits: 2))×, \(verdict(growth <= 2))"
                + (growth > 2 ? " (by \(format(growth / 2, digits: 1))× over)" : "") + ".")
        report(
            "Target: ≥ 100× faster than naive at 1,000 NPCs: \(format(speedup, digits: 0))×, \(verdict(speedup >= 100))"
                + (speedup < 100 ? " (\(format(100 / speedup, digits: 1))× short)" : "") + ".")
        report(
            "Naive ÷ autosave compares medians of the naive save with fsync (durable, like the autosave's "
                + "`synchronous = FULL`) and of the autosave.")
        report("")
    }

    /// What one world size measured.
    struct Row {
        var entries = 0
        var fileMegabytes = 0.0
        var fullSave = 0.0
        var autosave: [Double] = []
        var naiveMegabytes = 0.0
        var naive: [Double] = []
        var naiveNoSync: [Double] = []
    }

    static func measure(npcs: Int, autosaves: Int, naiveRuns: Int) throws -> Row {
        let pack = SyntheticWorld.generate(seed: 9, locations: max(4, npcs / 20), npcs: npcs, items: 60)
        var state = pack.initialState
        let ids = state.world.npcs.keys.sorted()
        var conversations: [NPCID: AnnotatedTranscript] = [:]
        for id in ids {
            let name = state.world.name(of: id)
            conversations[id] = AnnotatedTranscript(
                transcript: SyntheticTranscript.make(entries: entriesPerNPC, speaker: name),
                annotations: [String: String](annotations: [
                    .npc: id.rawValue, .npcName: name, .modelID: "scripted", .modelVersion: "1",
                ]))
        }
        let folder = try BenchContent.temporaryFolder("autosave")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SaveGameStore(folder: folder)
        var row = Row()
        row.entries = conversations.values.reduce(0) { $0 + $1.transcript.count }
        do {
            let file = try store.open(slot: "bench")
            row.fullSave =
                try Measure.time {
                    try file.writeFull(
                        SaveSnapshot(state: state, conversations: conversations, playTime: .zero, label: "Bench"))
                }.milliseconds
            let locations = state.world.locations.keys.sorted()
            for index in 0..<(autosaves + 3) {
                // One turn: an NPC says something new and walks to the next location.
                let npc = ids[(index * 7_919) % ids.count]
                var conversation = conversations[npc]!
                let turn = SyntheticTranscript.turn(1_000 + index, speaker: state.world.name(of: npc))
                conversation.transcript.append(contentsOf: turn)
                if case .prompt(let prompt)? = turn.first {
                    conversation.turnAnnotations[prompt.id] = [String: String](annotations: [
                        .player: "Ada", .gold: "14", .location: "loc_0",
                    ])
                }
                conversations[npc] = conversation
                let from = state.world.npcs[npc]!.location
                let to = locations[(locations.firstIndex(of: from)! + 1) % locations.count]
                let event = GameEvent.npcMoved(npc: npc, from: from, to: to)
                try state.apply(event)
                let elapsed = try Measure.time {
                    try file.autosave(
                        SaveDelta(
                            state: state, events: [event], conversations: [npc: conversation],
                            playTime: .seconds(index)))
                }.milliseconds
                if index >= 3 { row.autosave.append(elapsed) }
            }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: store.slotURL("bench").path)[.size] as? Int) ?? 0
        let wal =
            (try? FileManager.default.attributesOfItem(atPath: store.slotURL("bench").path + "-wal")[.size] as? Int)
            ?? 0
        row.fileMegabytes = Double(size + wal) / 1_048_576
        let naive = folder.appendingPathComponent("naive.json")
        for _ in 0..<naiveRuns {
            var bytes = 0
            row.naive.append(
                try Measure.time {
                    bytes = try NaiveSave.write(state: state, conversations: conversations, to: naive, durable: true)
                }.milliseconds)
            row.naiveMegabytes = Double(bytes) / 1_048_576
            row.naiveNoSync.append(
                try Measure.time {
                    try NaiveSave.write(state: state, conversations: conversations, to: naive, durable: false)
                }.milliseconds)
        }
        return row
    }
}
