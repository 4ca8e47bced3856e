extension Database {
    /// Checks the whole database file for damage (`PRAGMA integrity_check`).
    ///
    /// It reads every page, so it takes time on a large file: run it when loading a save, not every turn.
    /// When the damage stops the check itself (SQLite then fails with `SQLITE_CORRUPT` or
    /// `SQLITE_NOTADB`, often after listing some problems), that failure is the last problem returned
    /// rather than thrown, so that a non-empty result always means "damaged".
    ///
    /// - Returns: The problems found, at most 100, in SQLite's words (such as
    ///   `"row 3 missing from index npc_name"`); empty when the database is sound.
    /// - Throws: ``SQLiteError`` for failures that say nothing about damage, such as
    ///   ``SQLiteError/Code/busy`` or ``SQLiteError/Code/ioError``.
    public func integrityCheck() throws -> [String] {
        var problems: [String] = []
        do {
            let statement = try prepare("PRAGMA integrity_check")
            while try statement.step() {
                problems.append(try statement.column(at: 0, as: String.self))
            }
        } catch let error as SQLiteError where error.code == .corrupt || error.code == .notADatabase {
            problems.append("the check stopped: \(error.message) (\(error.code))")
        }
        return problems == ["ok"] ? [] : problems
    }

    /// Reads the user version (`PRAGMA user_version`): an integer stored in the file's header that SQLite
    /// leaves to the application, 0 in a new database.
    ///
    /// - Returns: The user version.
    /// - Throws: ``SQLiteError`` when the header cannot be read.
    public func userVersion() throws -> Int {
        try scalar("PRAGMA user_version", as: Int.self) ?? 0
    }

    /// Sets the user version (`PRAGMA user_version`). It takes part in the open transaction, if any.
    ///
    /// - Parameter version: The new version; it must fit in 32 bits (`Int32`).
    /// - Throws: ``SQLiteError`` with code ``SQLiteError/Code/range`` when `version` does not fit in 32 bits,
    ///   or another ``SQLiteError`` when writing fails (for example ``SQLiteError/Code/readOnly``).
    public func setUserVersion(_ version: Int) throws {
        guard let version = Int32(exactly: version) else {
            throw SQLiteError(code: .range, message: "the user version \(version) does not fit in 32 bits")
        }
        // PRAGMA takes no parameters; the value is an integer, so it is safe to put in the text.
        try execute(sql: "PRAGMA user_version = \(version)")
    }

    /// The names of the tables in the database, sorted, without SQLite's own `sqlite_` tables.
    ///
    /// - Returns: The table names (views, indexes and triggers are not included).
    /// - Throws: ``SQLiteError`` when the schema cannot be read.
    public func tableNames() throws -> [String] {
        // `_` is a LIKE wildcard, hence the escape.
        let sql = """
            SELECT name FROM sqlite_schema
            WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY name
            """
        return try query(sql).map { try $0.get(0, as: String.self) }
    }
}
