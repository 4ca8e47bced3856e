extension Database {
    /// Runs a query and returns all its rows.
    ///
    /// ```swift
    /// let rows = try db.query("SELECT name, level FROM npc WHERE level >= ?", [3])
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement, usually a `SELECT`.
    ///   - arguments: Values for its parameters (see ``StatementArguments``).
    /// - Returns: Every row, in the order SQLite returned them.
    /// - Throws: ``SQLiteError`` when the statement does not compile, the arguments do not match, or
    ///   running it fails.
    public func query(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(sql, arguments) { rows.append($0) }
        return rows
    }

    /// Runs a query and hands each row to `body` as it is read, without keeping them all in memory.
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement, usually a `SELECT`.
    ///   - arguments: Values for its parameters (see ``StatementArguments``).
    ///   - body: Called once per row, in order. If it throws, reading stops and the error is rethrown.
    /// - Throws: ``SQLiteError`` when the statement does not compile, the arguments do not match, or
    ///   running it fails; or what `body` throws.
    public func forEachRow(
        _ sql: String, _ arguments: StatementArguments = [], _ body: (Row) throws -> Void
    ) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        let names = statement.columnNames
        while try statement.step() {
            try body(Row(columnNames: names, values: (0..<names.count).map(statement.value(at:))))
        }
    }

    /// Runs a query and returns the first column of its first row, as a Swift type.
    ///
    /// ```swift
    /// let count = try db.scalar("SELECT count(*) FROM npc", as: Int.self) ?? 0
    /// let name: String? = try db.scalar("SELECT name FROM npc WHERE id = ?", [id])
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement.
    ///   - arguments: Values for its parameters (see ``StatementArguments``).
    ///   - type: The type to read; inferred when the result has a declared type.
    /// - Returns: The value, or `nil` when the query returned no row or the value is NULL.
    /// - Throws: ``SQLiteError`` when the statement fails, or with code ``SQLiteError/Code/mismatch``
    ///   when the value cannot be read as `T`.
    public func scalar<T: SQLiteValueConvertible>(
        _ sql: String, _ arguments: StatementArguments = [], as type: T.Type = T.self
    ) throws -> T? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step(), statement.columnCount > 0 else { return nil }
        if statement.value(at: 0).isNull { return nil }
        return try statement.column(at: 0, as: T.self)
    }
}
