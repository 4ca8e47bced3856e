import Foundation
import ParleySQLite
import Testing

@Suite struct DatabaseTests {
    // MARK: - Opening and options

    @Test("Opening applies the options: WAL, synchronous, busy timeout, foreign keys")
    func optionsAreApplied() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            let db = try Database(path: path)
            #expect(try db.scalar("PRAGMA journal_mode", as: String.self) == "wal")
            #expect(try db.scalar("PRAGMA synchronous", as: Int.self) == 2)
            #expect(try db.scalar("PRAGMA busy_timeout", as: Int.self) == 5000)
            #expect(try db.scalar("PRAGMA foreign_keys", as: Bool.self) == true)
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test(
        "Each synchronous level is set",
        arguments: [
            (DatabaseOptions.Synchronous.off, 0), (.normal, 1), (.full, 2), (.extra, 3),
        ])
    func synchronousLevels(_ level: DatabaseOptions.Synchronous, _ pragmaValue: Int) throws {
        try withTemporaryDirectory { directory in
            let options = DatabaseOptions(synchronous: level, busyTimeout: .milliseconds(250), foreignKeys: false)
            let db = try Database(path: directory.appendingPathComponent("slot.parley").path, options: options)
            #expect(try db.scalar("PRAGMA synchronous", as: Int.self) == pragmaValue)
            #expect(try db.scalar("PRAGMA busy_timeout", as: Int.self) == 250)
            #expect(try db.scalar("PRAGMA foreign_keys", as: Bool.self) == false)
        }
    }

    @Test("The rollback journal can be chosen instead of WAL")
    func deleteJournalMode() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            let db = try Database(path: path, options: DatabaseOptions(journalMode: .delete))
            #expect(try db.scalar("PRAGMA journal_mode", as: String.self) == "delete")
        }
    }

    @Test("An in-memory database opens with the default options")
    func inMemory() throws {
        let db = try Database(path: ":memory:")
        #expect(try db.scalar("PRAGMA journal_mode", as: String.self) == "memory")
        #expect(try db.tableNames() == [])
    }

    @Test("Foreign keys are enforced")
    func foreignKeysEnforced() throws {
        let db = try Database(path: ":memory:")
        try db.execute(
            sql: """
                CREATE TABLE npc(id INTEGER PRIMARY KEY);
                CREATE TABLE line(npc INTEGER NOT NULL REFERENCES npc(id));
                """)
        let error = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO line(npc) VALUES (?)", [99])
        }
        #expect(error.code == .constraint)
        #expect(error.extendedCode == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
    }

    @Test("Double quotes are identifiers, never string literals")
    func doubleQuotedStringsAreOff() throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try db.query("SELECT \"oops\"") }
        #expect(error.message.contains("no such column"))
    }

    @Test("A missing file is created, or refused, depending on the access")
    func missingFile() throws {
        try withTemporaryDirectory { directory in
            for access in [DatabaseOptions.Access.readWrite, .readOnly] {
                let path = directory.appendingPathComponent("missing-\(access).parley").path
                let error = try #require(throws: SQLiteError.self) {
                    try Database(path: path, options: DatabaseOptions(access: access))
                }
                #expect(error.code == .cannotOpen)
                #expect(error.message.contains(path))
                #expect(!FileManager.default.fileExists(atPath: path))
            }
        }
    }

    @Test("A file in a directory that does not exist cannot be opened, and the error names the path")
    func missingDirectory() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("no/such/dir/slot.parley").path
            let error = try #require(throws: SQLiteError.self) { try Database(path: path) }
            #expect(error.code == .cannotOpen)
            #expect(error.message.contains(path))
            #expect(error.description.contains("check that the path is right"))
        }
    }

    // MARK: - Running SQL

    @Test("execute(sql:) runs every statement of a script")
    func executeScript() throws {
        let db = try Database(path: ":memory:")
        try db.execute(
            sql: """
                CREATE TABLE npc(id INTEGER PRIMARY KEY, name TEXT NOT NULL); -- the cast
                CREATE TABLE line(npc INTEGER, text TEXT);
                INSERT INTO npc(name) VALUES ('Mira'), ('Tobin');
                SELECT 1; -- rows are ignored
                """)
        #expect(try db.tableNames() == ["line", "npc"])
        #expect(try db.scalar("SELECT count(*) FROM npc", as: Int.self) == 2)
    }

    @Test("A failing statement in a script reports its own SQL; the statements before it stay done")
    func executeScriptFailure() throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) {
            try db.execute(sql: "CREATE TABLE npc(id); INSERT INTO nowhere VALUES (1); CREATE TABLE never(id);")
        }
        #expect(error.message == "no such table: nowhere")
        #expect(error.sql?.hasPrefix("INSERT INTO nowhere VALUES (1);") == true)
        #expect(try db.tableNames() == ["npc"])
    }

    @Test("lastInsertRowID and changes report the latest statement")
    func lastInsertRowIDAndChanges() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE npc(id INTEGER PRIMARY KEY, name TEXT)")
        try db.execute("INSERT INTO npc(id, name) VALUES (?, ?)", [41, "Mira"])
        #expect(db.lastInsertRowID == 41)
        try db.execute("INSERT INTO npc(name) VALUES (?)", ["Tobin"])
        #expect(db.lastInsertRowID == 42)
        try db.execute("UPDATE npc SET name = upper(name)")
        #expect(db.changes == 2)
    }

    @Test("query returns rows with names; forEachRow streams them and stops when the body throws")
    func queryAndForEachRow() throws {
        struct Stop: Error {}
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE npc(name TEXT, level INTEGER)")
        for (name, level) in [("Mira", 3), ("Tobin", 1), ("Ysolde", 7)] {
            try db.execute("INSERT INTO npc VALUES (:name, :level)", ["name": name, "level": level])
        }
        let rows = try db.query("SELECT name, level FROM npc WHERE level > ? ORDER BY level", [1])
        #expect(rows.map(\.columnNames) == [["name", "level"], ["name", "level"]])
        #expect(try rows.map { try $0.get("name", as: String.self) } == ["Mira", "Ysolde"])
        #expect(try rows[1].get("LEVEL", as: Int.self) == 7)
        #expect(rows[0]["missing"] == nil)
        #expect(throws: SQLiteError.self) { try rows[0].get("missing", as: Int.self) }

        var seen: [String] = []
        #expect(throws: Stop.self) {
            try db.forEachRow("SELECT name FROM npc ORDER BY name") { row in
                seen.append(try row.get(0))
                if seen.count == 2 { throw Stop() }
            }
        }
        #expect(seen == ["Mira", "Tobin"])
    }

    @Test("scalar returns nil for no row and for NULL")
    func scalarNil() throws {
        let db = try Database(path: ":memory:")
        try db.execute(sql: "CREATE TABLE npc(level INTEGER)")
        #expect(try db.scalar("SELECT level FROM npc", as: Int.self) == nil)
        #expect(try db.scalar("SELECT max(level) FROM npc", as: Int.self) == nil)
        let error = try #require(throws: SQLiteError.self) { try db.scalar("SELECT 'x'", as: Int.self) }
        #expect(error.code == .mismatch)
    }

    // MARK: - Schema helpers

    @Test("The user version is 0 at first, and a new value is kept in the file")
    func userVersion() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            do {
                let db = try Database(path: path)
                #expect(try db.userVersion() == 0)
                try db.setUserVersion(7)
                #expect(throws: SQLiteError.self) { try db.setUserVersion(Int(Int32.max) + 1) }
            }
            #expect(try Database(path: path).userVersion() == 7)
        }
    }

    @Test("tableNames lists tables only, sorted, without SQLite's own")
    func tableNames() throws {
        let db = try Database(path: ":memory:")
        try db.execute(
            sql: """
                CREATE TABLE zeta(id INTEGER PRIMARY KEY AUTOINCREMENT);
                CREATE TABLE alpha(id);
                CREATE INDEX alpha_id ON alpha(id);
                CREATE VIEW beta AS SELECT * FROM alpha;
                """)
        #expect(try db.tableNames() == ["alpha", "zeta"])
    }
}
