extension Database {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// ```swift
    /// try db.transaction { db in
    ///     try db.execute("UPDATE npc SET gold = gold - ? WHERE id = ?", [price, buyer])
    ///     try db.execute("UPDATE npc SET gold = gold + ? WHERE id = ?", [price, seller])
    /// }
    /// ```
    ///
    /// Transactions nest: inside another transaction, this one becomes a savepoint (and `kind` is
    /// ignored). If the inner `body` throws, only its changes are rolled back, and the error reaches the
    /// outer `body`, which may catch it and go on, or let it through and roll back everything.
    ///
    /// Do not run `BEGIN`, `COMMIT`, `ROLLBACK` or `RELEASE` yourself inside `body`.
    ///
    /// - Parameters:
    ///   - kind: When the transaction takes its locks; ``TransactionKind/immediate`` suits writes.
    ///   - body: The work to do; it receives this database.
    /// - Returns: What `body` returned, once committed.
    /// - Throws: What `body` threw, after rolling back; or ``SQLiteError`` when beginning or committing
    ///   fails (for example ``SQLiteError/Code/busy``), in which case nothing was committed.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: (Database) throws -> T) throws -> T {
        if isInTransaction {
            return try savepoint(body)
        }
        try beginTransaction(kind)
        let result: T
        do {
            result = try body(self)
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        try commitOrRollback()
        return result
    }

    // MARK: - Steps, shared with DatabaseQueue

    func beginTransaction(_ kind: TransactionKind) throws {
        try execute(sql: "BEGIN \(kind.rawValue.uppercased()) TRANSACTION")
    }

    /// Commits; if that fails (a commit can fail with SQLITE_BUSY and leave the transaction open), rolls
    /// back, so the connection is never left inside a transaction, and rethrows.
    func commitOrRollback() throws {
        do {
            try execute(sql: "COMMIT TRANSACTION")
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
    }

    /// Rolls back the open transaction, if any. Its errors are dropped on purpose: the caller is already
    /// reporting the error that made it roll back, and after some errors (SQLITE_FULL, SQLITE_IOERR,
    /// SQLITE_NOMEM) SQLite has rolled back by itself, so a ROLLBACK would only fail.
    func rollbackIgnoringErrors() {
        if isInTransaction {
            try? execute(sql: "ROLLBACK TRANSACTION")
        }
    }

    // MARK: - Savepoints

    private func savepoint<T>(_ body: (Database) throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "parley_savepoint_\(savepointDepth)"
        try execute(sql: "SAVEPOINT \(name)")
        do {
            let result = try body(self)
            try execute(sql: "RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            // ROLLBACK TO undoes the changes but keeps the savepoint open; RELEASE then closes it. Errors are
            // dropped for the reasons given on rollbackIgnoringErrors().
            if isInTransaction {
                try? execute(sql: "ROLLBACK TO SAVEPOINT \(name)")
                try? execute(sql: "RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
    }
}
