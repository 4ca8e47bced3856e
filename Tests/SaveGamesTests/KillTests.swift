import ChildProcess
import Foundation
import GameWorld
import LanguageModels
import ParleyBasics
import ParleySQLite
import SaveGames
import Testing

/// Kills a game with SIGKILL at random moments while it autosaves, many times, and checks after each kill that the
/// save is sound and holds every turn reported as saved, byte for byte, with each turn's recording and report saved
/// exactly when its entries are (both or neither).
///
/// The game is `save-stress` (Sources/SaveStress), which prints each turn's number once its save committed. Rounds
/// reuse a slot ten times in a row, so killed saves are also reopened and continued. Set `PARLEY_KILL_ROUNDS` for more
/// rounds (the default is 30) and `PARLEY_KILL_SEED` to replay a run.
@Suite struct KillTests {
    static var rounds: Int { Int(ProcessInfo.processInfo.environment["PARLEY_KILL_ROUNDS"] ?? "") ?? 30 }
    static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["PARLEY_KILL_SEED"] ?? "") ?? 0x5EED }

    static var binary: URL { TestPaths.productsDirectory.appendingPathComponent("save-stress") }

    @Test("A game killed with SIGKILL at random moments leaves a sound save holding every reported turn")
    func killedWhileAutosaving() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary.path),
            "no save-stress binary next to the tests at \(Self.binary.path); build it with 'swift build --product save-stress'"
        )
        var random = SplitMix64(seed: Self.seed)
        var savedTurns: [String: Int] = [:]
        var killedMidWrite = 0
        try await withTemporaryDirectory { folder in
            for round in 0..<Self.rounds {
                let slot = "stress-\(round / 10)"
                let afterLines = random.next(in: 0...25)
                let delay = random.next(in: 0...8_000)
                let context: Comment =
                    "round \(round) (seed \(Self.seed)): killed after \(afterLines) turns + \(delay) µs"
                let reported = try await Self.runAndKill(
                    folder: folder, slot: slot, afterLines: afterLines, delay: delay)
                let before = savedTurns[slot] ?? 0
                let known = max(before, reported ?? 0)
                let saved = try await Self.verify(folder: folder, slot: slot, context: context)
                #expect(saved >= known, "a turn reported as saved is missing; \(context)")
                #expect(saved <= known + 1, "more turns saved than were played; \(context)")
                if saved > known { killedMidWrite += 1 }
                savedTurns[slot] = saved
            }
        }
        // Not a requirement, but the point of the random delays: some kills must land between a commit and its report.
        print("KillTests: \(Self.rounds) rounds, \(killedMidWrite) kills after a commit and before its report")
    }

    // MARK: - Helpers

    /// What a killed or finished `save-stress` printed and how it ended.
    struct Finished: Sendable {
        var output: Data
        var stderr: String
        var killedBySignal: Bool
        var status: Int32
    }

    /// Runs `save-stress run`, kills it once it reported `afterLines` turns plus `delay` microseconds, and returns
    /// the last turn it reported (including lines still in the pipe after its death), or `nil` for none.
    ///
    /// The process is run, read and waited for on a thread of its own (``offThePool(_:)``), so the kill's timing
    /// is microseconds as the seed says and no thread of the cooperative pool is held meanwhile.
    static func runAndKill(folder: URL, slot: String, afterLines: Int, delay: Int) async throws -> Int? {
        let finished = try await offThePool {
            let process = try ChildProcess.launch(binary.path, arguments: ["run", folder.path, slot])
            var buffer = Data()
            while buffer.count(where: { $0 == UInt8(ascii: "\n") }) < afterLines {
                guard let chunk = process.standardOutput?.availableData, !chunk.isEmpty else { break }  // It exited.
                buffer.append(chunk)
            }
            usleep(UInt32(delay))
            process.send(SIGKILL)
            let termination = process.waitForExit()
            buffer.append((try? process.standardOutput?.readToEnd()) ?? Data())
            let stderr = String(decoding: (try? process.standardError?.readToEnd()) ?? Data(), as: UTF8.self)
            return Finished(
                output: buffer, stderr: stderr, killedBySignal: termination == .signalled(SIGKILL),
                status: termination.status)
        }
        let buffer = finished.output
        #expect(
            finished.killedBySignal && finished.status == SIGKILL,
            "save-stress was not killed but exited with \(finished.status): \(finished.stderr)")
        let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        // A line cut short by the kill does not count.
        let whole = buffer.last == UInt8(ascii: "\n") ? lines[...] : lines.dropLast()
        return whole.last.flatMap { Int($0) }
    }

    /// Checks the killed game's save with `save-stress verify` (every check is there, shared with
    /// `parley-bench kill`); returns the number of turns it holds.
    static func verify(folder: URL, slot: String, context: Comment) async throws -> Int {
        let finished = try await offThePool {
            let run = try ChildProcess.run(binary.path, arguments: ["verify", folder.path, slot])
            return Finished(
                output: run.output, stderr: String(decoding: run.error, as: UTF8.self),
                killedBySignal: { if case .signalled = run.termination { true } else { false } }(),
                status: run.termination.status)
        }
        let printed = String(decoding: finished.output, as: UTF8.self)
        let stderr = finished.stderr
        #expect(finished.status == 0, "\(printed)\(stderr); \(context)")
        let turns = printed.split(separator: "\n").first { $0.hasPrefix("turns ") }.flatMap { Int($0.dropFirst(6)) }
        return try #require(turns, "save-stress verify printed \(printed)\(stderr); \(context)")
    }
}
