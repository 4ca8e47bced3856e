import Foundation
import GameWorld
import LanguageModels
import ParleyBasics
import ParleySQLite
import SaveGames

/// `parley-bench kill`: the kill-during-autosave test at scale. Runs `save-stress` (the writer of
/// `Tests/SaveGamesTests/KillTests.swift`), kills it with SIGKILL at random moments, hundreds of times, and checks
/// after each kill that the save is sound and holds every turn the writer reported as saved, byte for byte.
///
/// The checks are those of `KillTests`: `integrity_check`, the label and play time of the last turn, no missing
/// content, each NPC's location, every transcript entry as stored and as loaded against `save-stress expect`, and
/// the turn annotations. Rounds reuse a slot ten times, so killed saves are also reopened and continued.
enum KillLoop {
    /// The world `save-stress` plays (the same generator call as its `StressGame.pack`).
    static let pack = SyntheticWorld.generate(seed: 2024, locations: 2, npcs: 3, items: 4)
    static let npcs: [NPCID] = ["npc_0", "npc_1", "npc_2"]

    /// The `save-stress` binary beside this one.
    static var binary: URL {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("save-stress")
    }

    /// Runs the rounds and returns the number of problems found (0 when every save was sound).
    static func run(rounds: Int, seed: UInt64) throws -> Int {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchError(
                "no save-stress binary beside parley-bench at \(binary.path); build it with "
                    + "'swift build -c release --product save-stress'")
        }
        report("## Kill during autosave: \(rounds) SIGKILLs (seed \(seed))")
        report("")
        let folder = try BenchContent.temporaryFolder("kill")
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(seed: seed)
        var savedTurns: [String: Int] = [:]
        var problems: [String] = []
        var killedMidWrite = 0
        let clock = ContinuousClock()
        let start = clock.now
        for round in 0..<rounds {
            let slot = "stress-\(round / 10)"
            let afterLines = random.next(in: 0...25)
            let delay = random.next(in: 0...8_000)
            let context = "round \(round): killed after \(afterLines) turns + \(delay) µs"
            let reported = try runAndKill(folder: folder, slot: slot, afterLines: afterLines, delay: delay)
            if let problem = reported.problem { problems.append("\(context): \(problem)") }
            let known = max(savedTurns[slot] ?? 0, reported.turn ?? 0)
            do {
                let saved = try verify(folder: folder, slot: slot)
                if saved < known {
                    problems.append("\(context): turn \(known) was reported saved, the save has \(saved)")
                }
                if saved > known + 1 { problems.append("\(context): \(saved) turns saved, only \(known + 1) played") }
                if saved > known { killedMidWrite += 1 }
                savedTurns[slot] = saved
            } catch {
                problems.append("\(context): \(error)")
            }
            if (round + 1) % 50 == 0 { report("- \(round + 1) rounds, \(problems.count) problems") }
        }
        let seconds = (clock.now - start).milliseconds / 1000
        report("")
        report(
            "\(rounds) kills in \(format(seconds, digits: 0)) s: \(problems.count) problems; "
                + "\(killedMidWrite) kills landed between a commit and its report; "
                + "\(savedTurns.values.reduce(0, +)) turns verified across \(savedTurns.count) slots.")
        for problem in problems.prefix(20) { report("  - \(problem)") }
        report("")
        return problems.count
    }

    /// What a killed run reported: its last whole turn number, and a problem if it was not killed.
    struct Reported {
        var turn: Int?
        var problem: String?
    }

    /// Runs `save-stress run`, kills it once it reported `afterLines` turns plus `delay` microseconds.
    static func runAndKill(folder: URL, slot: String, afterLines: Int, delay: Int) throws -> Reported {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run", folder.path, slot]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var buffer = Data()
        while buffer.count(where: { $0 == UInt8(ascii: "\n") }) < afterLines {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        usleep(UInt32(delay))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        buffer.append(output.fileHandleForReading.readDataToEndOfFile())
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var result = Reported()
        if !(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL) {
            result.problem = "save-stress was not killed but exited with \(process.terminationStatus): \(stderr)"
        }
        let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        let whole = buffer.last == UInt8(ascii: "\n") ? lines[...] : lines.dropLast()
        result.turn = whole.last.flatMap { Int($0) }
        return result
    }

    /// Checks the killed game's save; returns the number of turns it holds.
    static func verify(folder: URL, slot: String) throws -> Int {
        let save = try SaveGameStore(folder: folder).open(slot: slot)
        let damage = try save.integrityCheck()
        guard damage.isEmpty else { throw BenchError("integrity_check: \(damage.joined(separator: "; "))") }
        guard try save.hasGame() else { return 0 }
        let loaded = try save.load(pack: pack)
        guard let turns = Int(loaded.metadata.label.dropFirst("turn ".count)) else {
            throw BenchError("the label is \"\(loaded.metadata.label)\", not \"turn N\"")
        }
        guard loaded.metadata.playTime == .seconds(turns) else {
            throw BenchError("play time \(loaded.metadata.playTime)")
        }
        guard loaded.missing.isEmpty else { throw BenchError("missing content: \(loaded.missing)") }
        for (index, npc) in npcs.enumerated() {
            let moves = (turns + (npcs.count - index) % npcs.count) / npcs.count
            let start = pack.world.npcs[npc]!.location
            let other: LocationID = start == "loc_0" ? "loc_1" : "loc_0"
            guard loaded.state.world.npcs[npc]?.location == (moves % 2 == 0 ? start : other) else {
                throw BenchError("\(npc) is not where \(turns) turns leave it")
            }
        }
        let lines = try expectedEntries(turns: turns)
        let db = try Database(path: save.url.path, options: DatabaseOptions(access: .readOnly))
        for npc in npcs {
            let wanted = lines[npc] ?? []
            let transcript = try save.transcript(npc: npc)
            let loadedJSON = transcript?.transcript.map { $0.jsonString() } ?? []
            guard loadedJSON == wanted else { throw BenchError("the loaded transcript of \(npc) differs") }
            let stored: [String] = try db.query(
                "SELECT json FROM transcript_entries WHERE npc = ? ORDER BY position", [npc.rawValue]
            ).map { try $0.get(0) }
            guard stored == wanted else { throw BenchError("the stored entries of \(npc) differ") }
            for (prompt, annotations) in transcript?.turnAnnotations ?? [:]
            where annotations["turn"].map({ "prompt-\($0)" }) != prompt {
                throw BenchError("the annotations of \(prompt) are wrong")
            }
        }
        return turns
    }

    /// What `save-stress expect` says the save must hold after `turns` turns: each NPC's entries' JSON, in order.
    static func expectedEntries(turns: Int) throws -> [NPCID: [String]] {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["expect", String(turns)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var entries: [NPCID: [String]] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { continue }
            entries[NPCID(String(parts[0])), default: []].append(String(parts[1]))
        }
        return entries
    }
}
