internal import CSQLite

extension Database {
    /// Runs a script: every statement in `sql`, in order, without arguments.
    ///
    /// Meant for schema changes and other fixed SQL. The statements are not wrapped in a transaction:
    /// if one fails, those before it stay done (run the script inside ``transaction(_:_:)`` to get all
    /// or nothing). Rows that statements return are ignored.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     CREATE TABLE npc(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    ///     CREATE INDEX npc_name ON npc(name);
    ///     """)
    /// ```
    ///
    /// - Parameter sql: Zero or more SQL statements separated by `;`.
    /// - Throws: ``SQLiteError`` for the first statement that fails, with that statement's SQL (or, when
    ///   it does not compile, the rest of the script from it on).
    public func execute(sql: String) throws {
        try sql.withCString { script in
            var next: UnsafePointer<CChar>? = script
            while let current = next, current.pointee != 0 {
                var compiled: OpaquePointer?
                let result = sqlite3_prepare_v2(handle, current, -1, &compiled, &next)
                guard result == SQLITE_OK else {
                    let rest = String(cString: current).drop(while: \.isWhitespace)
                    throw SQLiteError(resultCode: result, connection: handle, sql: String(rest))
                }
                // Only spaces or a comment were left: nothing to run.
                guard let compiled else { continue }
                let statement = Statement(database: self, handle: compiled)
                while try statement.step() {}
            }
        }
    }

    /// Runs one statement with arguments, ignoring any rows it returns.
    ///
    /// ```swift
    /// try db.execute("INSERT INTO npc(name, level) VALUES (?, ?)", ["Mira", 3])
    /// let id = db.lastInsertRowID
    /// ```
    ///
    /// - Parameters:
    ///   - sql: Exactly one SQL statement.
    ///   - arguments: Values for its parameters (see ``StatementArguments``).
    /// - Throws: ``SQLiteError`` when the statement does not compile, the arguments do not match its
    ///   parameters, or running it fails (for example ``SQLiteError/Code/constraint``).
    public func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }
}
