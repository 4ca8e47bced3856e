internal import CSQLite

/// One compiled SQL statement: the owner of an `sqlite3_stmt*` handle.
///
/// Create it with ``Database/prepare(_:)``, bind arguments, then ``step()`` through its rows:
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO line(npc, text) VALUES (:npc, :text)")
/// for line in lines {
///     try insert.bind(["npc": line.npc, "text": line.text])
///     _ = try insert.step()
/// }
/// ```
///
/// A statement keeps its ``Database`` open, and is finalized when released. Like its database, it is
/// not `Sendable`. Parameter indices start at 1, as in SQL's `?1`; column indices start at 0, as in
/// `sqlite3_column_*`.
public final class Statement {
    /// The SQL text of this statement, as SQLite compiled it.
    public let sql: String

    /// The connection the statement runs on, kept alive as long as the statement.
    let database: Database

    let handle: OpaquePointer

    /// Compiles exactly one statement from `sql`.
    init(database: Database, sql: String) throws {
        var statement: OpaquePointer?
        var remainder = ""
        let result = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let result = sqlite3_prepare_v2(database.handle, text, -1, &statement, &tail)
            if let tail { remainder = String(cString: tail) }
            return result
        }
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: database.handle, sql: sql)
        }
        guard let statement else {
            throw SQLiteError(code: .misuse, message: "the SQL holds no statement", sql: sql)
        }
        self.database = database
        self.handle = statement
        self.sql = String(cString: sqlite3_sql(statement))
        // Anything after the first statement must be blank or comments: running only the first of several
        // statements would silently drop the rest. (From here on, deinit finalizes the handle.)
        if Self.holdsMoreSQL(remainder, database: database) {
            throw SQLiteError(
                code: .misuse,
                message: "prepare(_:) takes one statement, but the SQL holds more; use execute(sql:) to run a script",
                sql: sql
            )
        }
    }

    /// Wraps a statement that ``Database/execute(sql:)`` compiled from a script.
    init(database: Database, handle: OpaquePointer) {
        self.database = database
        self.handle = handle
        self.sql = String(cString: sqlite3_sql(handle))
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Running

    /// Runs the statement to its next row.
    ///
    /// After `true`, read the row with ``value(at:)``, ``column(at:as:)`` or ``row()``. After `false`,
    /// the statement is done; ``reset()`` it (or bind new arguments) to run it again.
    ///
    /// - Returns: `true` when a row is ready, `false` when the statement has finished.
    /// - Throws: ``SQLiteError`` with the statement's SQL, for example ``SQLiteError/Code/constraint``
    ///   or ``SQLiteError/Code/busy``.
    @discardableResult
    public func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let result: throw SQLiteError(resultCode: result, connection: database.handle, sql: sql)
        }
    }

    /// Rewinds the statement so it can run again; bound arguments are kept.
    ///
    /// Resetting also ends the read that a half-stepped `SELECT` holds open. It does not throw: the
    /// error of a failed step, which `sqlite3_reset` repeats, was already thrown by ``step()``.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: - Helpers

    /// Whether `sql` holds anything but spaces and comments: a statement, or text that does not compile.
    private static func holdsMoreSQL(_ sql: String, database: Database) -> Bool {
        guard sql.contains(where: { !$0.isWhitespace }) else { return false }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil)
        sqlite3_finalize(statement)
        return result != SQLITE_OK || statement != nil
    }
}

@available(*, unavailable, message: "A Statement must be used by one task at a time, like its Database")
extension Statement: Sendable {}
