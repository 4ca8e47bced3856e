import Dispatch
import Foundation
import ParleySQLite
import Testing

/// `asyncWrite` and `asyncRead`: the same transactions as `write` and `read`, run on the queue's own thread while the
/// calling task waits without holding one of the cooperative pool's.
@Suite struct AsyncDatabaseQueueTests {
    struct Failure: Error {}

    @Test("An async write commits, and an async read sees it")
    func asyncWriteCommits() async throws {
        try await withTemporaryDirectory { directory in
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("slot.parley").path)
            try await queue.asyncWrite { db in try db.execute(sql: "CREATE TABLE turn(number INTEGER NOT NULL)") }
            let rows = try await queue.asyncWrite { db -> Int in
                for number in 1...3 { try db.execute("INSERT INTO turn(number) VALUES (?)", [number]) }
                return db.changes
            }
            #expect(rows == 1)
            let sum = try await queue.asyncRead { db in try db.scalar("SELECT sum(number) FROM turn", as: Int.self) }
            #expect(sum == 6)
            // And the synchronous side reads the same committed rows.
            #expect(try queue.read { db in try db.scalar("SELECT count(*) FROM turn", as: Int.self) } == 3)
        }
    }

    @Test("An async write that throws rolls back everything it did, and the error reaches the caller")
    func asyncWriteRollsBack() async throws {
        try await withTemporaryDirectory { directory in
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("slot.parley").path)
            try queue.write { db in try db.execute(sql: "CREATE TABLE turn(number INTEGER NOT NULL)") }
            await #expect(throws: Failure.self) {
                try await queue.asyncWrite { db in
                    try db.execute("INSERT INTO turn(number) VALUES (?)", [1])
                    throw Failure()
                }
            }
            #expect(try queue.read { db in try db.scalar("SELECT count(*) FROM turn", as: Int.self) } == 0)
        }
    }

    @Test("An async read cannot write")
    func asyncReadIsReadOnly() async throws {
        try await withTemporaryDirectory { directory in
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("slot.parley").path)
            try queue.write { db in try db.execute(sql: "CREATE TABLE turn(number INTEGER NOT NULL)") }
            await #expect(throws: SQLiteError.self) {
                try await queue.asyncRead { db in try db.execute("INSERT INTO turn(number) VALUES (?)", [1]) }
            }
            #expect(try queue.read { db in try db.scalar("SELECT count(*) FROM turn", as: Int.self) } == 0)
        }
    }

    @Test("Async and synchronous writes from many tasks at once lose no update")
    func mixedWritesLoseNothing() async throws {
        try await withTemporaryDirectory { directory in
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("slot.parley").path)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE counter(value INTEGER NOT NULL); INSERT INTO counter VALUES (0);")
            }
            let tasks = 8
            let writesPerTask = 40
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        for n in 0..<writesPerTask {
                            // Read, then write what was read plus one: a lost update would show as a lower total.
                            let increment: @Sendable (Database) throws -> Void = { db in
                                let value = try db.scalar("SELECT value FROM counter", as: Int.self) ?? 0
                                try db.execute("UPDATE counter SET value = ?", [value + 1])
                            }
                            if (task + n).isMultiple(of: 2) {
                                try await queue.asyncWrite(increment)
                            } else {
                                try queue.write { db in try increment(db) }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try queue.read { db in try db.scalar("SELECT value FROM counter", as: Int.self) } == tasks * writesPerTask)
        }
    }

    @Test("A write waiting in its transaction holds none of the cooperative pool's threads")
    func waitingWritesLeaveThePoolFree() async throws {
        // More writes than the pool has threads (it has one per core), each to its own file and each stopped in its
        // transaction until a task signals it. If the writes ran on the pool, the signalling task would find no
        // thread, and every write would give up waiting (after a minute: a hang guard, not a timing).
        let writes = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        try await withTemporaryDirectory { directory in
            let queues = try (0..<writes).map { index in
                let queue = try DatabaseQueue(path: directory.appendingPathComponent("slot\(index).parley").path)
                try queue.write { db in try db.execute(sql: "CREATE TABLE t(signalled INTEGER NOT NULL)") }
                return queue
            }
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let signalled = try await withThrowingTaskGroup(of: Bool.self) { group in
                for queue in queues {
                    group.addTask {
                        try await queue.asyncWrite { db -> Bool in
                            entered.signal()
                            let signalled = release.wait(timeout: .now() + .seconds(60)) == .success
                            try db.execute("INSERT INTO t(signalled) VALUES (?)", [signalled])
                            return signalled
                        }
                    }
                }
                // A task of the pool: it can run only while the pool has a thread free.
                group.addTask {
                    for _ in 0..<writes {
                        await withCheckedContinuation { continuation in
                            DispatchQueue.global().async {
                                entered.wait()
                                continuation.resume()
                            }
                        }
                    }
                    for _ in 0..<writes { release.signal() }
                    return true
                }
                var results: [Bool] = []
                for try await result in group { results.append(result) }
                return results
            }
            #expect(signalled.count == writes + 1)
            #expect(signalled.allSatisfy { $0 })
            for queue in queues {
                #expect(try queue.read { db in try db.scalar("SELECT signalled FROM t", as: Int.self) } == 1)
            }
        }
    }
}
