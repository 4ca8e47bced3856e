import ParleySQLite
import Synchronization

extension SaveSchema {
    /// The columns of each table, by the migrations applied so far, as the migrations create them on an empty
    /// database; computed once per list of migration ids (ids are permanent and their migrations never edited).
    private static let columnsCache = Mutex<[[String]: [String: Set<String>]]>([:])

    /// The columns each table must have in a save that applied `applied`: the schema those migrations create.
    ///
    /// - Parameters:
    ///   - applied: The migration ids a save applied, in order.
    ///   - migrator: The schema's migrations.
    /// - Returns: Each table's column names; empty when `applied` is not the first migrations of `migrator` in
    ///   order (no released save is like that, and there is then nothing to compare with).
    /// - Throws: ``SQLiteError`` or ``MigrationError`` when the migrations cannot be run in memory.
    static func columns(afterApplying applied: [String], of migrator: Migrator) throws -> [String: Set<String>] {
        guard Array(migrator.migrationIDs.prefix(applied.count)) == applied else { return [:] }
        if let known = columnsCache.withLock({ $0[applied] }) { return known }
        let db = try Database(path: ":memory:")
        try migrator.prefix(applied.count).migrate(db)
        var columns: [String: Set<String>] = [:]
        for row in try db.query(
            "SELECT m.name, p.name FROM sqlite_schema AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table'")
        {
            columns[try row.get(0, as: String.self), default: []].insert(try row.get(1))
        }
        columnsCache.withLock { $0[applied] = columns }
        return columns
    }
}
