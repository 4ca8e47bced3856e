import Foundation
import ParleySQLite
import Testing

@Suite struct SQLiteErrorTests {
    @Test("A syntax error carries the code, SQLite's message and the SQL, and its description says what to do")
    func syntaxError() throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try db.execute("SELEC 1") }
        #expect(error.code == .error)
        #expect(error.extendedCode == 1)
        #expect(error.message == "near \"SELEC\": syntax error")
        #expect(error.sql == "SELEC 1")
        #expect(
            error.description
                == "SQLite error SQLITE_ERROR (1): near \"SELEC\": syntax error. Statement: SELEC 1. Check the SQL "
                + "and the database file; the code is explained at https://www.sqlite.org/rescode.html.")
    }

    @Test("A unique violation is a constraint error with the extended code, matchable in catch")
    func uniqueConstraint() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE npc(name TEXT UNIQUE NOT NULL)")
        try db.execute("INSERT INTO npc VALUES (?)", ["Mira"])
        do {
            try db.execute("INSERT INTO npc VALUES (?)", ["Mira"])
            Issue.record("expected a constraint error")
        } catch SQLiteError.Code.constraint {
        }
        let error = try #require(throws: SQLiteError.self) { try db.execute("INSERT INTO npc VALUES (?)", ["Mira"]) }
        #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.message == "UNIQUE constraint failed: npc.name")
        #expect(error.sql == "INSERT INTO npc VALUES (?)")
        #expect(error.description.contains("SQLITE_CONSTRAINT (19) (extended code 2067)"))
        #expect(error.description.contains("fix the data or the statement"))

        let notNull = try #require(throws: SQLiteError.self) { try db.execute("INSERT INTO npc VALUES (NULL)") }
        #expect(notNull.code == .constraint)
        #expect(notNull.extendedCode == 1299)  // SQLITE_CONSTRAINT_NOTNULL
    }

    @Test("A write while another connection holds the write lock fails with busy once the timeout runs out")
    func busy() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            let holder = try Database(path: path)
            try holder.execute(sql: "CREATE TABLE npc(name TEXT)")
            let waiter = try Database(path: path, options: DatabaseOptions(busyTimeout: .milliseconds(50)))
            try holder.transaction { db in
                try db.execute("INSERT INTO npc VALUES (?)", ["Mira"])
                let start = ContinuousClock.now
                let error = try #require(throws: SQLiteError.self) {
                    try waiter.transaction { db in try db.execute("INSERT INTO npc VALUES (?)", ["Tobin"]) }
                }
                #expect(error.code == .busy)
                #expect(ContinuousClock.now - start >= .milliseconds(40))
                #expect(error.description.contains("busy timeout"))
                // WAL: a reader is not blocked by the writer, and sees the last commit.
                #expect(try waiter.scalar("SELECT count(*) FROM npc", as: Int.self) == 0)
            }
            try waiter.transaction { db in try db.execute("INSERT INTO npc VALUES (?)", ["Tobin"]) }
            #expect(try holder.scalar("SELECT count(*) FROM npc", as: Int.self) == 2)
        }
    }

    @Test(
        "Each code the game acts on has its C name and advice in the description",
        arguments: [
            (SQLiteError.Code.busy, "SQLITE_BUSY (5)", "retry later"),
            (.corrupt, "SQLITE_CORRUPT (11)", "restore the file from a backup"),
            (.notADatabase, "SQLITE_NOTADB (26)", "not an SQLite database"),
            (.full, "SQLITE_FULL (13)", "free some space"),
            (.readOnly, "SQLITE_READONLY (8)", "open it read-write"),
            (.cannotOpen, "SQLITE_CANTOPEN (14)", "check that the path is right"),
            (.constraint, "SQLITE_CONSTRAINT (19)", "violates a constraint"),
        ])
    func descriptions(_ code: SQLiteError.Code, _ name: String, _ advice: String) {
        let error = SQLiteError(extendedCode: code.rawValue, message: "something", sql: "SELECT 1")
        #expect(error.code == code)
        #expect(error.description.hasPrefix("SQLite error \(name): something. Statement: SELECT 1. "))
        #expect(error.description.contains(advice))
    }

    @Test("An extended code's low byte is the primary code")
    func extendedCodeMasking() {
        let error = SQLiteError(extendedCode: 2067, message: "UNIQUE constraint failed")
        #expect(error.code == .constraint)
        #expect(error.extendedCode == 2067)
        #expect(error.sql == nil)
        #expect(!error.description.contains("Statement:"))
    }
}
