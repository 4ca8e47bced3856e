internal import CSQLite
import Foundation

extension Statement {
    /// How many parameters the statement has: the largest `?NNN` index, counting each `?`, `:name`,
    /// `@name` and `$name` once.
    public var parameterCount: Int {
        Int(sqlite3_bind_parameter_count(handle))
    }

    // MARK: - All arguments at once

    /// Resets the statement, clears its parameters, and binds `arguments`.
    ///
    /// The arguments must match the statement exactly: a list needs one value per parameter; a dictionary
    /// needs one entry per named parameter and no others, and the statement must not use bare `?`.
    ///
    /// - Parameter arguments: The values to bind.
    /// - Throws: ``SQLiteError`` with code ``SQLiteError/Code/range`` when the arguments do not match the
    ///   parameters (the message says how), or ``SQLiteError/Code/mismatch`` for a NaN.
    public func bind(_ arguments: StatementArguments) throws {
        reset()
        clearBindings()
        switch arguments {
        case .positional(let values):
            guard values.count == parameterCount else {
                throw SQLiteError(
                    code: .range,
                    message: "the statement has \(parameterCount) parameter(s), but \(values.count) argument(s) "
                        + "were given",
                    sql: sql
                )
            }
            for (offset, value) in values.enumerated() {
                try bindValue(value, at: Int32(offset + 1))
            }
        case .named(let values):
            try bindNamed(values)
        }
    }

    // MARK: - One argument

    /// Binds one value to the parameter at `index`.
    ///
    /// - Parameters:
    ///   - value: The value; `nil` binds NULL.
    ///   - index: The parameter's index, starting at 1 (`?1`; the n-th bare `?` is index n).
    /// - Throws: ``SQLiteError`` with code ``SQLiteError/Code/range`` for an index the statement does not
    ///   have, or ``SQLiteError/Code/mismatch`` for a NaN.
    public func bind(_ value: (any SQLiteValueConvertible)?, at index: Int) throws {
        guard index >= 1, index <= parameterCount else {
            throw SQLiteError(
                code: .range,
                message: "there is no parameter \(index): the statement has \(parameterCount) (indices start at 1)",
                sql: sql
            )
        }
        try bindValue(value?.sqliteValue ?? .null, at: Int32(index))
    }

    /// Binds one value to the named parameter `name`.
    ///
    /// - Parameters:
    ///   - value: The value; `nil` binds NULL.
    ///   - name: The parameter's name, with its prefix (`":level"`) or without (`"level"`, which finds
    ///     `:level`, `@level` or `$level`).
    /// - Throws: ``SQLiteError`` with code ``SQLiteError/Code/range`` when the statement has no such
    ///   parameter, or ``SQLiteError/Code/mismatch`` for a NaN.
    public func bind(_ value: (any SQLiteValueConvertible)?, named name: String) throws {
        guard let index = parameterIndex(named: name) else {
            throw SQLiteError(code: .range, message: "the statement has no parameter named \"\(name)\"", sql: sql)
        }
        try bindValue(value?.sqliteValue ?? .null, at: index)
    }

    // MARK: - Helpers

    private static let namePrefixes: [Character] = [":", "@", "$"]

    private func parameterIndex(named name: String) -> Int32? {
        let candidates =
            name.first.map { Self.namePrefixes.contains($0) } == true
            ? [name] : Self.namePrefixes.map { "\($0)\(name)" }
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(handle, candidate)
            if index > 0 { return index }
        }
        return nil
    }

    private func bindNamed(_ values: [String: SQLiteValue]) throws {
        var unused = Set(values.keys)
        for index in 1..<(parameterCount + 1) {
            guard let cName = sqlite3_bind_parameter_name(handle, Int32(index)) else {
                throw SQLiteError(
                    code: .range,
                    message: "parameter \(index) is a bare \"?\", which named arguments cannot reach; "
                        + "name it (:name) or pass the arguments as a list",
                    sql: sql
                )
            }
            let name = String(cString: cName)
            // Accept the key with or without the prefix that the SQL uses.
            let bare = String(name.dropFirst())
            let key = values[name] != nil ? name : bare
            guard let value = values[key] else {
                throw SQLiteError(code: .range, message: "no argument was given for parameter \(name)", sql: sql)
            }
            unused.remove(key)
            try bindValue(value, at: Int32(index))
        }
        if !unused.isEmpty {
            throw SQLiteError(
                code: .range,
                message: "the statement has no parameter(s) named \(unused.sorted().joined(separator: ", "))",
                sql: sql
            )
        }
    }

    func bindValue(_ value: SQLiteValue, at index: Int32) throws {
        let result: Int32
        switch value {
        case .null:
            result = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            result = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            // SQLite would store NaN as NULL: refuse rather than change the data silently.
            guard !real.isNaN else {
                throw SQLiteError(
                    code: .mismatch,
                    message: "parameter \(index) is NaN, which SQLite would store as NULL; bind nil instead, or "
                        + "store a sentinel value",
                    sql: sql
                )
            }
            result = sqlite3_bind_double(handle, index, real)
        case .text(var text):
            // An explicit byte count keeps "\0" inside the text; TRANSIENT makes SQLite copy the bytes.
            result = text.withUTF8 { bytes in
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text64(handle, index, "", 0, parley_sqlite3_transient(), UInt8(SQLITE_UTF8))
                }
                return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
                    sqlite3_bind_text64(
                        handle, index, characters, UInt64(bytes.count), parley_sqlite3_transient(),
                        UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            result = data.withUnsafeBytes { bytes in
                // A NULL pointer would bind NULL, so an empty blob needs its own call.
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_zeroblob(handle, index, 0)
                }
                return sqlite3_bind_blob64(handle, index, start, UInt64(bytes.count), parley_sqlite3_transient())
            }
        }
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: database.handle, sql: sql)
        }
    }
}
