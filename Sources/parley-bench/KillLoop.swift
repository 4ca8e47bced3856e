import ChildProcess
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
/// The checks are those of `KillTests`, made by `save-stress verify`: `integrity_check`, the label and play time of
/// the last turn, no missing content, each NPC's location, every transcript entry as stored and as loaded, the turn
/// annotations, and each turn's recording and report. Rounds reuse a slot ten times, so killed saves are also
/// reopened and continued.
enum KillLoop {
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
        let process = try ChildProcess.launch(binary.path, arguments: ["run", folder.path, slot])
        var buffer = Data()
        while buffer.count(where: { $0 == UInt8(ascii: "\n") }) < afterLines {
            guard let chunk = process.standardOutput?.availableData, !chunk.isEmpty else { break }
            buffer.append(chunk)
        }
        usleep(UInt32(delay))
        process.send(SIGKILL)
        let termination = process.waitForExit()
        buffer.append((try? process.standardOutput?.readToEnd()) ?? Data())
        let stderr = String(decoding: (try? process.standardError?.readToEnd()) ?? Data(), as: UTF8.self)
        var result = Reported()
        if termination != .signalled(SIGKILL) {
            result.problem = "save-stress was not killed but ended with \(termination): \(stderr)"
        }
        let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        let whole = buffer.last == UInt8(ascii: "\n") ? lines[...] : lines.dropLast()
        result.turn = whole.last.flatMap { Int($0) }
        return result
    }

    /// Checks the killed game's save with `save-stress verify`; returns the number of turns it holds.
    static func verify(folder: URL, slot: String) throws -> Int {
        let run = try ChildProcess.run(binary.path, arguments: ["verify", folder.path, slot])
        let printed = String(decoding: run.output, as: UTF8.self)
        let stderr = String(decoding: run.error, as: UTF8.self)
        let lines = printed.split(separator: "\n")
        guard run.termination == .exited(0), let turns = lines.first.flatMap({ Int($0.dropFirst("turns ".count)) })
        else {
            throw BenchError((lines.map(String.init) + [stderr]).joined(separator: "; "))
        }
        return turns
    }
}
