import Foundation
import ParleySQLite
import Testing

@Suite struct DatabaseQueueTests {
    struct Failure: Error {}

    @Test("Many tasks writing through one queue lose no update")
    func concurrentWritesThroughOneQueue() async throws {
        try await withTemporaryDirectory { directory in
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("slot.parley").path)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE counter(value INTEGER NOT NULL); INSERT INTO counter VALUES (0);")
                try db.execute(sql: "CREATE TABLE event(task INTEGER NOT NULL, n INTEGER NOT NULL)")
            }
            let tasks = 8
            let writesPerTask = 50
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        for n in 0..<writesPerTask {
                            // Read, then write what was read plus one: a lost update would show as a lower total.
                            try queue.write { db in
                                let value = try db.scalar("SELECT value FROM counter", as: Int.self) ?? 0
                                try db.execute("UPDATE counter SET value = ?", [value + 1])
                                try db.execute("INSERT INTO event(task, n) VALUES (?, ?)", [task, n])
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let (counter, events) = try queue.read { db in
                (
                    try db.scalar("SELECT value FROM counter", as: Int.self),
                    try db.scalar("SELECT count(DISTINCT task * 1000 + n) FROM event", as: Int.self)
                )
            }
            #expect(counter == tasks * writesPerTask)
            #expect(events == tasks * writesPerTask)
        }
    }

    @Test("Two queues on one file, each written from its own task, lose no write")
    func concurrentWritesThroughTwoConnections() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            let first = try DatabaseQueue(path: path)
            let second = try DatabaseQueue(path: path)
            try first.write { db in try db.execute(sql: "CREATE TABLE event(source TEXT NOT NULL)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (name, queue) in [("first", first), ("second", second)] {
                    group.addTask {
                        for _ in 0..<100 {
                            try queue.write { db in try db.execute("INSERT INTO event VALUES (?)", [name]) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try first.read { db in try db.scalar("SELECT count(*) FROM event", as: Int.self) } == 200)
        }
    }

    @Test("read sees the database but cannot change it, and the queue can write afterwards")
    func readIsReadOnly() throws {
        let queue = try DatabaseQueue(path: ":memory:")
        try queue.write { db in try db.execute(sql: "CREATE TABLE npc(name TEXT)") }
        let error = try #require(throws: SQLiteError.self) {
            try queue.read { db in try db.execute("INSERT INTO npc VALUES ('Mira')") }
        }
        #expect(error.code == .readOnly)
        try queue.write { db in try db.execute("INSERT INTO npc VALUES ('Mira')") }
        #expect(try queue.read { db in try db.scalar("SELECT count(*) FROM npc", as: Int.self) } == 1)
    }

    @Test("write runs in a transaction that rolls back when the body throws")
    func writeRollsBack() throws {
        let queue = try DatabaseQueue(path: ":memory:")
        try queue.write { db in try db.execute(sql: "CREATE TABLE npc(name TEXT)") }
        #expect(throws: Failure.self) {
            try queue.write { db in
                #expect(db.isInTransaction)
                try db.execute("INSERT INTO npc VALUES ('Mira')")
                throw Failure()
            }
        }
        #expect(try queue.read { db in try db.scalar("SELECT count(*) FROM npc", as: Int.self) } == 0)
    }

    @Test("writeWithoutTransaction runs outside any transaction, for VACUUM and the like")
    func writeWithoutTransaction() throws {
        try withTemporaryDirectory { directory in
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("slot.parley").path)
            try queue.writeWithoutTransaction { db in
                #expect(!db.isInTransaction)
                try db.execute(sql: "CREATE TABLE npc(name TEXT); VACUUM;")
            }
        }
    }

    @Test("A read-only queue refuses writes")
    func readOnlyQueue() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE npc(name TEXT)") }
            let queue = try DatabaseQueue(path: path, options: DatabaseOptions(access: .readOnly))
            #expect(try queue.read { db in try db.tableNames() } == ["npc"])
            let error = try #require(throws: SQLiteError.self) {
                try queue.write { db in try db.execute("INSERT INTO npc VALUES ('Mira')") }
            }
            #expect(error.code == .readOnly)
        }
    }
}
