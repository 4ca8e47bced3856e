import Foundation
import GameWorld
import LanguageModels
import SaveGames
import Synchronization

/// Part of scenario 11: many games' autosaves at once, written on the calling task's thread (`SaveFile.autosave`,
/// as `GameHost` did before) or on each save's own thread (`SaveFile.asyncAutosave`, as it does now).
///
/// Each game has its own save file (`synchronous = FULL`: every commit waits for the disk). Beside the saves, a probe
/// task asks the cooperative pool for a thread every millisecond and records how late it got one: what every other
/// task of the process (a game's turn, a server's handler) waits while the saves run.
enum SavesInFlight {
    /// What one way of saving measured.
    struct Result {
        /// Wall time for every save of every game.
        var seconds: Double = 0
        /// Each autosave's time, in milliseconds, as its game waited for it.
        var saves: [Double] = []
        /// How late the probe got a thread of the pool, in milliseconds, once per millisecond while the saves ran.
        var probeLateness: [Double] = []
        /// The most saves that were writing at one moment.
        var mostAtOnce = 0
    }

    /// Writes `turns` autosaves for each of `games` saves, all games at once.
    static func measure(games: Int, turns: Int, async: Bool) async throws -> Result {
        let folder = try BenchContent.temporaryFolder("saves-in-flight")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pack = try BenchContent.shippedPack()
        let state = pack.initialState
        let npc = state.world.npcs.keys.sorted()[0]
        let name = state.world.name(of: npc)
        let store = SaveGameStore(folder: folder)
        var files: [SaveFile] = []
        for index in 0..<games {
            let file = try store.open(slot: "game\(index)")
            try file.writeFull(SaveSnapshot(state: state, playTime: .zero, label: "Bench"))
            files.append(file)
        }
        defer { files.forEach { $0.close() } }

        let inFlight = InFlight()
        let clock = ContinuousClock()
        let begin = clock.now
        let probe = Task { () -> [Double] in
            var lateness: [Double] = []
            while !Task.isCancelled {
                let asked = clock.now
                try? await Task.sleep(for: .milliseconds(1))
                lateness.append(max(0, (clock.now - asked).milliseconds - 1))
            }
            return lateness
        }
        let saves = try await withThrowingTaskGroup(of: [Double].self) { group in
            for file in files {
                group.addTask {
                    var transcript = SyntheticTranscript.make(turns: 0, speaker: name)
                    var times: [Double] = []
                    for turn in 1...turns {
                        transcript.append(contentsOf: SyntheticTranscript.turn(turn, speaker: name))
                        let delta = SaveDelta(
                            state: state,
                            conversations: [npc: AnnotatedTranscript(transcript: transcript, annotations: [:])],
                            playTime: .seconds(turn))
                        let start = clock.now
                        inFlight.begin()
                        if async {
                            try await file.asyncAutosave(delta)
                        } else {
                            try file.autosave(delta)
                        }
                        inFlight.end()
                        times.append((clock.now - start).milliseconds)
                    }
                    return times
                }
            }
            var all: [Double] = []
            for try await times in group { all += times }
            return all
        }
        let seconds = Double((clock.now - begin).milliseconds) / 1000
        probe.cancel()
        return Result(
            seconds: seconds, saves: saves, probeLateness: await probe.value, mostAtOnce: inFlight.most)
    }

    /// How many saves are writing now, and the most there were at once.
    final class InFlight: Sendable {
        private let counts = Mutex((now: 0, most: 0))

        func begin() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func end() { counts.withLock { $0.now -= 1 } }
        var most: Int { counts.withLock { $0.most } }
    }

    /// Measures both ways and reports them as a table.
    static func run(games: Int, turns: Int) async throws {
        report(
            "Autosaves of \(games) games at once, \(turns) each (one save file per game, `synchronous = FULL`), with "
                + "a probe asking the cooperative pool for a thread every millisecond:")
        report("")
        report(
            "| Autosave | Saves | Wall s | Save p50 ms | Save p95 ms | Most writing at once | Pool wait p50 ms "
                + "| Pool wait p95 ms |")
        report("|---|---:|---:|---:|---:|---:|---:|---:|")
        // A round of each first, so that neither pays for the first files' creation alone.
        _ = try await measure(games: min(games, 10), turns: 2, async: false)
        _ = try await measure(games: min(games, 10), turns: 2, async: true)
        for (label, async) in [("on the task's thread (`autosave`)", false), ("on the save's own thread (`asyncAutosave`)", true)] {
            let result = try await measure(games: games, turns: turns, async: async)
            report(
                "| \(label) | \(result.saves.count) | \(format(result.seconds, digits: 2)) "
                    + "| \(format(Measure.median(result.saves), digits: 1)) "
                    + "| \(format(Measure.percentile(result.saves, 95), digits: 1)) | \(result.mostAtOnce) "
                    + "| \(format(Measure.median(result.probeLateness), digits: 2)) "
                    + "| \(format(Measure.percentile(result.probeLateness, 95), digits: 2)) |")
        }
        report("")
    }
}
