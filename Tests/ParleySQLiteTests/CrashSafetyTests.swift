import ChildProcess
import Foundation
import ParleyBasics
import ParleySQLite
import Testing

/// Kills a writer with SIGKILL in the middle of its transactions, then checks with ParleySQLite that the
/// database is sound and holds every transaction the writer reported as committed, each in full.
///
/// The writer is the `sqlite3` command-line tool (Debian package `sqlite3`) fed a script of turns, one
/// transaction each, that prints each turn's number after its COMMIT returns. Whatever was printed before
/// the kill is known to be committed.
@Suite struct CrashSafetyTests {
    static let turnsPerRound = 20_000

    @Test("Committed turns survive the writer being killed with SIGKILL, and the database stays sound")
    func killedWriter() async throws {
        let sqlite3 = try #require(
            Self.executable(named: "sqlite3"),
            "This test drives the sqlite3 command-line tool, which is not installed: apt-get install sqlite3"
        )
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            do {
                let db = try Database(path: path)
                try db.execute(
                    sql: """
                        CREATE TABLE turn(number INTEGER NOT NULL, part INTEGER NOT NULL, payload BLOB NOT NULL,
                                          PRIMARY KEY (number, part));
                        CREATE TABLE meta(last_turn INTEGER NOT NULL);
                        INSERT INTO meta VALUES (0);
                        """)
            }
            for round in 1...3 {
                let firstTurn =
                    try #require(try Database(path: path).scalar("SELECT last_turn FROM meta", as: Int.self)) + 1
                let script = directory.appendingPathComponent("round-\(round).sql")
                try Self.writerScript(turns: firstTurn..<(firstTurn + Self.turnsPerRound)).write(to: script)

                let killAfterLines = Int.random(in: 200...5_000)
                let extraDelay = UInt32.random(in: 0...3_000)
                let context: Comment = "round \(round): kill after \(killAfterLines) lines + \(extraDelay) µs"
                let lastReported = try await Self.runAndKill(
                    sqlite3, database: path, script: script, afterLines: killAfterLines, extraMicroseconds: extraDelay)

                // Opening recovers the WAL left behind by the killed writer.
                let db = try Database(path: path)
                #expect(try db.integrityCheck() == [], context)
                let lastTurn = try #require(try db.scalar("SELECT last_turn FROM meta", as: Int.self))
                #expect(lastTurn >= lastReported, "a reported commit is missing; \(context)")
                #expect(try db.scalar("SELECT max(number) FROM turn", as: Int.self) == lastTurn, context)
                // Every turn 1...lastTurn is there with both its parts: no gap, no half transaction.
                #expect(try db.scalar("SELECT count(*) FROM turn", as: Int.self) == 2 * lastTurn, context)
                #expect(try db.scalar("SELECT count(DISTINCT number) FROM turn", as: Int.self) == lastTurn, context)
                #expect(try db.scalar("SELECT min(number) FROM turn", as: Int.self) == 1, context)
            }
        }
    }

    // MARK: - Helpers

    /// One transaction per turn, as the game's autosave will do; the turn number is printed only once
    /// COMMIT has returned.
    private static func writerScript(turns: Range<Int>) -> Data {
        var script = "PRAGMA busy_timeout = 5000;\nPRAGMA synchronous = NORMAL;\n"
        for turn in turns {
            script += "BEGIN IMMEDIATE; "
            script += "INSERT INTO turn VALUES (\(turn), 1, randomblob(300)), (\(turn), 2, randomblob(300)); "
            script += "UPDATE meta SET last_turn = \(turn); COMMIT; SELECT \(turn);\n"
        }
        return Data(script.utf8)
    }

    /// What the killed writer printed and how it ended.
    private struct Killed: Sendable {
        var output: Data
        var killedBySignal: Bool
        var status: Int32
    }

    /// Runs the writer, kills it with SIGKILL once it has reported `afterLines` commits (plus a short random
    /// delay), and returns the last turn it reported, including lines still in the pipe after its death.
    ///
    /// The writer is run, read and waited for on a thread of its own (``offThePool(_:)``): the test holds no thread
    /// of the cooperative pool while it runs.
    private static func runAndKill(
        _ executable: URL, database: String, script: URL, afterLines: Int, extraMicroseconds: UInt32
    ) async throws -> Int {
        let killed = try await offThePool {
            let process = try ChildProcess.launch(
                executable.path, arguments: [database], input: .file(script.path), output: .pipe, error: .inherit)
            var buffer = Data()
            var lines = 0
            while lines < afterLines {
                // End of output: the writer exited on its own.
                guard let chunk = process.standardOutput?.availableData, !chunk.isEmpty else { break }
                buffer.append(chunk)
                lines = buffer.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            }
            usleep(extraMicroseconds)
            process.send(SIGKILL)
            let termination = process.waitForExit()
            buffer.append((try? process.standardOutput?.readToEnd()) ?? Data())
            return Killed(
                output: buffer, killedBySignal: termination == .signalled(SIGKILL), status: termination.status)
        }
        let buffer = killed.output

        #expect(
            killed.killedBySignal && killed.status == SIGKILL,
            "the writer was not killed mid-run (it exited with \(killed.status)); make the script longer")
        let complete = String(decoding: buffer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        // The last piece may be a line cut short by the kill; only whole lines count.
        let whole = buffer.last == UInt8(ascii: "\n") ? complete : complete.dropLast()
        return whole.last.flatMap { Int($0) } ?? 0
    }

    /// The first executable called `name` on the PATH.
    private static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").lazy
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
