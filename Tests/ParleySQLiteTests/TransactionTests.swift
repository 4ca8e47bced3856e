import ParleySQLite
import Testing

@Suite struct TransactionTests {
    struct Failure: Error, Equatable {
        let reason: String
    }

    private func makeDatabase() throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE npc(name TEXT PRIMARY KEY)")
        return db
    }

    private func names(_ db: Database) throws -> [String] {
        try db.query("SELECT name FROM npc ORDER BY name").map { try $0.get(0) }
    }

    @Test(
        "A transaction commits when its body returns, and returns the body's value",
        arguments: [
            TransactionKind.deferred, .immediate, .exclusive,
        ])
    func commits(_ kind: TransactionKind) throws {
        let db = try makeDatabase()
        let count = try db.transaction(kind) { db in
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO npc VALUES (?)", ["Mira"])
            try db.execute("INSERT INTO npc VALUES (?)", ["Tobin"])
            return try db.scalar("SELECT count(*) FROM npc", as: Int.self)
        }
        #expect(count == 2)
        #expect(!db.isInTransaction)
        #expect(try names(db) == ["Mira", "Tobin"])
    }

    @Test("A transaction rolls back when its body throws, and rethrows the same error")
    func rollsBackOnThrow() throws {
        let db = try makeDatabase()
        let error = try #require(throws: Failure.self) {
            try db.transaction { db in
                try db.execute("INSERT INTO npc VALUES (?)", ["Mira"])
                throw Failure(reason: "the player quit")
            }
        }
        #expect(error == Failure(reason: "the player quit"))
        #expect(!db.isInTransaction)
        #expect(try names(db) == [])
    }

    @Test("A failing statement rolls back the statements before it in the transaction")
    func constraintFailureRollsBackEverything() throws {
        let db = try makeDatabase()
        let error = try #require(throws: SQLiteError.self) {
            try db.transaction { db in
                try db.execute("INSERT INTO npc VALUES (?)", ["Mira"])
                try db.execute("INSERT INTO npc VALUES (?)", ["Mira"])
            }
        }
        #expect(error.code == .constraint)
        #expect(try names(db) == [])
    }

    @Test("A nested transaction that throws rolls back only its own changes")
    func nestedRollback() throws {
        let db = try makeDatabase()
        try db.transaction { db in
            try db.execute("INSERT INTO npc VALUES (?)", ["outer"])
            #expect(throws: Failure.self) {
                try db.transaction { db in
                    try db.execute("INSERT INTO npc VALUES (?)", ["inner"])
                    throw Failure(reason: "inner")
                }
            }
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO npc VALUES (?)", ["after"])
        }
        #expect(try names(db) == ["after", "outer"])
    }

    @Test("A nested transaction's changes are undone when the outer one throws")
    func outerRollbackUndoesInner() throws {
        let db = try makeDatabase()
        #expect(throws: Failure.self) {
            try db.transaction { db in
                try db.transaction { db in
                    try db.execute("INSERT INTO npc VALUES (?)", ["inner"])
                }
                throw Failure(reason: "outer")
            }
        }
        #expect(try names(db) == [])
    }

    @Test("Savepoints nest three deep, and siblings reuse names safely")
    func deepNesting() throws {
        let db = try makeDatabase()
        try db.transaction { db in
            try db.transaction { db in
                try db.execute("INSERT INTO npc VALUES (?)", ["level 2"])
                try? db.transaction { db in
                    try db.execute("INSERT INTO npc VALUES (?)", ["level 3, undone"])
                    throw Failure(reason: "level 3")
                }
                try db.transaction { db in
                    try db.execute("INSERT INTO npc VALUES (?)", ["level 3, kept"])
                }
            }
        }
        #expect(try names(db) == ["level 2", "level 3, kept"])
    }

    @Test("A transaction is durable: another connection sees it once committed")
    func committedIsVisibleToOthers() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            let writer = try Database(path: path)
            let reader = try Database(path: path)
            try writer.execute(sql: "CREATE TABLE npc(name TEXT)")
            try writer.transaction { db in
                try db.execute("INSERT INTO npc VALUES (?)", ["Mira"])
                #expect(try reader.scalar("SELECT count(*) FROM npc", as: Int.self) == 0)
            }
            #expect(try reader.scalar("SELECT count(*) FROM npc", as: Int.self) == 1)
        }
    }
}
