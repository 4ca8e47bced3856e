import ParleySQLite
import Testing

@Suite struct MigratorTests {
    struct Failure: Error {}

    /// A migrator whose migrations each create a table named after their id and log that they ran.
    private func migrator(_ ids: [String]) -> Migrator {
        var migrator = Migrator()
        for id in ids {
            migrator.registerMigration(id) { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS ran(id TEXT)")
                try db.execute("INSERT INTO ran(id) VALUES (?)", [id])
                try db.execute(sql: "CREATE TABLE \"\(id)\"(x)")
            }
        }
        return migrator
    }

    private func ran(_ db: Database) throws -> [String] {
        try db.query("SELECT id FROM ran ORDER BY rowid").map { try $0.get(0) }
    }

    @Test("Migrations apply in registration order and are recorded")
    func appliesInOrder() throws {
        let db = try Database(path: ":memory:")
        let migrator = migrator(["v1", "v3", "v2"])
        #expect(try !migrator.hasCompletedMigrations(db))
        try migrator.migrate(db)
        #expect(try ran(db) == ["v1", "v3", "v2"])
        #expect(try migrator.appliedMigrationIDs(in: db) == ["v1", "v3", "v2"])
        #expect(try migrator.hasCompletedMigrations(db))
        #expect(try db.tableNames().contains(Migrator.tableName))
    }

    @Test("A prefix of a migrator applies only its first migrations, as that older version did")
    func prefix() throws {
        let all = migrator(["v1", "v2", "v3"])
        #expect(all.prefix(2).migrationIDs == ["v1", "v2"])
        #expect(all.prefix(0).migrationIDs.isEmpty)
        #expect(all.prefix(7).migrationIDs == ["v1", "v2", "v3"])
        let db = try Database(path: ":memory:")
        try all.prefix(2).migrate(db)
        #expect(try ran(db) == ["v1", "v2"])
        #expect(try !db.tableNames().contains("v3"))
    }

    @Test("Migrating again applies nothing; a later version applies only the new migrations")
    func idempotentAndIncremental() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("slot.parley").path
            try migrator(["v1", "v2"]).migrate(Database(path: path))
            try migrator(["v1", "v2"]).migrate(Database(path: path))
            try migrator(["v1", "v2", "v3"]).migrate(Database(path: path))
            #expect(try ran(Database(path: path)) == ["v1", "v2", "v3"])
        }
    }

    @Test("A database that applied a migration this code does not know is refused as newerSchema, unchanged")
    func newerSchema() throws {
        let db = try Database(path: ":memory:")
        try migrator(["v1", "v2", "v3"]).migrate(db)
        let before = try db.tableNames()

        let error = try #require(throws: MigrationError.self) {
            try migrator(["v1", "v4"]).migrate(db)
        }
        #expect(error.code == .newerSchema)
        #expect(error.migrationIDs == ["v2", "v3"])
        #expect(error.description.contains("newer version"))
        #expect(error.description.contains("\"v2\", \"v3\""))
        #expect(try db.tableNames() == before)
        #expect(try ran(db) == ["v1", "v2", "v3"])

        // The code also matches in a catch clause.
        do {
            try migrator(["v1"]).migrate(db)
            Issue.record("expected newerSchema")
        } catch MigrationError.Code.newerSchema {
        }
    }

    @Test("A failing migration is rolled back entirely; the ones before it stay applied")
    func failingMigrationRollsBack() throws {
        let db = try Database(path: ":memory:")
        var migrator = migrator(["v1"])
        migrator.registerMigration("v2-fails") { db in
            try db.execute(sql: "CREATE TABLE half_done(x)")
            try db.execute(sql: "INSERT INTO v1(x) VALUES (1)")
            throw Failure()
        }
        migrator.registerMigration("v3-never") { db in
            try db.execute(sql: "CREATE TABLE never(x)")
        }

        let error = try #require(throws: MigrationError.self) { try migrator.migrate(db) }
        #expect(error.code == .migrationFailed)
        #expect(error.migrationIDs == ["v2-fails"])
        #expect(error.underlyingError is Failure)
        #expect(try migrator.appliedMigrationIDs(in: db) == ["v1"])
        #expect(try db.tableNames() == ["ran", Migrator.tableName, "v1"].sorted())
        #expect(try db.scalar("SELECT count(*) FROM v1", as: Int.self) == 0)
    }

    @Test("A failing first migration leaves a new database empty, without even the bookkeeping table")
    func failingFirstMigrationLeavesNothing() throws {
        let db = try Database(path: ":memory:")
        var migrator = Migrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE npc(id INTEGER PRIMARY KEY)")
            try db.execute(sql: "CREATE TABLE npc(id INTEGER PRIMARY KEY)")
        }
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(db) }
        let cause = try #require(error.underlyingError as? SQLiteError)
        #expect(cause.message.contains("already exists"))
        #expect(error.description.contains("\"v1\" failed"))
        #expect(try db.tableNames() == [])
    }

    @Test("Two migrations with one id are refused before anything is applied")
    func duplicateIDs() throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: MigrationError.self) {
            try migrator(["v1", "v2", "v1"]).migrate(db)
        }
        #expect(error.code == .duplicateMigrationID)
        #expect(error.migrationIDs == ["v1"])
        #expect(try db.tableNames() == [])
    }

    @Test("A migrator runs through a DatabaseQueue")
    func throughQueue() throws {
        try withTemporaryDirectory { directory in
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("slot.parley").path)
            try migrator(["v1", "v2"]).migrate(queue)
            #expect(try queue.read { db in try self.ran(db) } == ["v1", "v2"])
        }
    }
}
