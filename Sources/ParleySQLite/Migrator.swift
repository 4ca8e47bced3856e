/// Brings a database's schema up to date with ordered, named migrations.
///
/// Register every migration the game has ever shipped, oldest first, each under an id that never
/// changes; never edit a migration once it has shipped, add a new one instead.
///
/// ```swift
/// var migrator = Migrator()
/// migrator.registerMigration("1-create-npc") { db in
///     try db.execute(sql: "CREATE TABLE npc(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
/// }
/// migrator.registerMigration("2-npc-mood") { db in
///     try db.execute(sql: "ALTER TABLE npc ADD COLUMN mood TEXT")
/// }
/// try migrator.migrate(queue)
/// ```
///
/// The ids of applied migrations are recorded in the table `schema_migrations(id TEXT PRIMARY KEY)`.
/// ``migrate(_:)-(Database)`` applies the missing ones in registration order, each in its own
/// transaction together with its record, so a migration is applied entirely or not at all, and never
/// twice. A database that records a migration this code does not know comes from a newer version, and
/// is refused with ``MigrationError/Code/newerSchema`` before anything changes.
///
/// Foreign keys stay as the connection has them (on by default) during migrations.
public struct Migrator: Sendable {
    /// The table that records applied migrations.
    public static let tableName = "schema_migrations"

    private var migrations: [(id: String, migrate: @Sendable (Database) throws -> Void)] = []

    /// Creates a migrator with no migrations.
    public init() {}

    /// The ids of the registered migrations, in the order they apply.
    public var migrationIDs: [String] {
        migrations.map(\.id)
    }

    /// Adds a migration after those already registered.
    ///
    /// - Parameters:
    ///   - id: A unique, permanent name for the migration, such as `"3-add-npc-mood"`.
    ///   - migrate: The schema change. It runs inside a transaction: it must not begin, commit or roll back
    ///     one itself, nor run statements that cannot run in a transaction (`VACUUM`).
    public mutating func registerMigration(_ id: String, migrate: @escaping @Sendable (Database) throws -> Void) {
        migrations.append((id, migrate))
    }

    /// The migrator with only the first `count` migrations: the schema as it was when they were the newest.
    ///
    /// Migrating an empty database with it gives the schema that a database which applied those migrations has,
    /// so that one can tell what such a database must hold (its tables and columns) without a copy of old code.
    ///
    /// ```swift
    /// let version2 = migrator.prefix(2)
    /// try version2.migrate(Database(path: ":memory:"))   // the schema after "1-initial" and "2-story-state"
    /// ```
    ///
    /// - Parameter count: How many migrations to keep, from the first; more than there are keeps them all.
    /// - Returns: The shorter migrator.
    public func prefix(_ count: Int) -> Migrator {
        var shorter = Migrator()
        shorter.migrations = Array(migrations.prefix(max(0, count)))
        return shorter
    }

    /// Applies the migrations that `database` has not applied yet, in order.
    ///
    /// Call it on a connection that is not in a transaction, so that each migration commits on its own.
    ///
    /// - Parameter database: The database to migrate.
    /// - Throws: ``MigrationError`` with code ``MigrationError/Code/duplicateMigrationID`` or
    ///   ``MigrationError/Code/newerSchema`` before changing anything;
    ///   ``MigrationError/Code/migrationFailed`` when a migration (or recording it) throws, after rolling
    ///   it back; or ``SQLiteError`` when the applied migrations cannot be read.
    public func migrate(_ database: Database) throws {
        var seen: Set<String> = []
        for id in migrationIDs where !seen.insert(id).inserted {
            throw MigrationError.duplicateMigrationID(id)
        }
        let applied = Set(try appliedMigrationIDs(in: database))
        let unknown = applied.subtracting(seen)
        guard unknown.isEmpty else {
            throw MigrationError.newerSchema(unknownIDs: unknown.sorted())
        }
        for migration in migrations where !applied.contains(migration.id) {
            do {
                try database.transaction(.immediate) { db in
                    // Created inside the transaction, so that a failing first migration leaves a new file
                    // exactly as it was.
                    try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(Self.tableName)(id TEXT PRIMARY KEY NOT NULL)")
                    // Another connection may have applied it since the check above.
                    let done = try db.scalar(
                        "SELECT 1 FROM \(Self.tableName) WHERE id = ?", [migration.id], as: Int.self)
                    guard done == nil else { return }
                    try migration.migrate(db)
                    try db.execute("INSERT INTO \(Self.tableName)(id) VALUES (?)", [migration.id])
                }
            } catch {
                throw MigrationError.migrationFailed(id: migration.id, underlyingError: error)
            }
        }
    }

    /// Applies the pending migrations through a queue, holding the connection for the whole run.
    ///
    /// - Parameter queue: The queue whose database to migrate.
    /// - Throws: As ``migrate(_:)-(Database)``.
    public func migrate(_ queue: DatabaseQueue) throws {
        try queue.writeWithoutTransaction { db in try migrate(db) }
    }

    /// The ids of the migrations recorded in `database`, in the order they were applied; registered or not.
    ///
    /// - Parameter database: The database to look at.
    /// - Returns: The applied ids; empty for a database never migrated.
    /// - Throws: ``SQLiteError`` when the schema or the table cannot be read.
    public func appliedMigrationIDs(in database: Database) throws -> [String] {
        let exists = try database.scalar(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [Self.tableName], as: Int.self)
        guard exists != nil else { return [] }
        return try database.query("SELECT id FROM \(Self.tableName) ORDER BY rowid").map { try $0.get(0) }
    }

    /// Whether `database` has applied every registered migration.
    ///
    /// - Parameter database: The database to look at.
    /// - Returns: `true` when nothing is pending (it may also have applied unknown ones).
    /// - Throws: ``SQLiteError`` when the applied migrations cannot be read.
    public func hasCompletedMigrations(_ database: Database) throws -> Bool {
        Set(try appliedMigrationIDs(in: database)).isSuperset(of: migrationIDs)
    }
}
