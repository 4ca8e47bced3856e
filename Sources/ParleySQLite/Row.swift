/// One row of a query result, copied out of SQLite: column names and values.
///
/// ```swift
/// for row in try db.query("SELECT name, level FROM npc") {
///     let name: String = try row.get("name")
///     let level = try row.get(1, as: Int.self)
/// }
/// ```
public struct Row: Sendable, Hashable {
    /// The column names, in order.
    public let columnNames: [String]

    /// The values, in column order.
    public let values: [SQLiteValue]

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - columnNames: The column names, in order.
    ///   - values: One value per column name.
    public init(columnNames: [String], values: [SQLiteValue]) {
        precondition(columnNames.count == values.count, "a row needs one value per column")
        self.columnNames = columnNames
        self.values = values
    }

    /// How many columns the row has.
    public var count: Int { values.count }

    /// The value of the column at `index`, starting at 0; an index out of range stops the program.
    ///
    /// - Parameter index: A column index.
    public subscript(index: Int) -> SQLiteValue {
        values[index]
    }

    /// The value of the column called `name`, or `nil` when the row has no such column.
    ///
    /// Names match exactly first, then ignoring ASCII case (as SQL does). With duplicate names, as from a
    /// join, the first wins; give columns `AS` aliases to reach the others.
    ///
    /// - Parameter name: A column name.
    public subscript(name: String) -> SQLiteValue? {
        index(of: name).map { values[$0] }
    }

    /// The value of the column at `index`, as a Swift type.
    ///
    /// - Parameters:
    ///   - index: A column index, starting at 0.
    ///   - type: The type to read; inferred when the result has a declared type.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError`` with code ``SQLiteError/Code/range`` for an index out of range, or
    ///   ``SQLiteError/Code/mismatch`` when the value cannot be read as `T`; read `T?` to allow NULL.
    public func get<T: SQLiteValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        guard values.indices.contains(index) else {
            throw SQLiteError(code: .range, message: "there is no column \(index): the row has \(count)")
        }
        return try convert(values[index], column: "\(index) (\(columnNames[index]))")
    }

    /// The value of the column called `name`, as a Swift type.
    ///
    /// - Parameters:
    ///   - name: A column name, matched as by ``subscript(_:)-(String)``.
    ///   - type: The type to read; inferred when the result has a declared type.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError`` with code ``SQLiteError/Code/range`` when the row has no such column, or
    ///   ``SQLiteError/Code/mismatch`` when the value cannot be read as `T`; read `T?` to allow NULL.
    public func get<T: SQLiteValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let index = index(of: name) else {
            throw SQLiteError(
                code: .range,
                message: "there is no column named \"\(name)\"; the row has \(columnNames.joined(separator: ", "))"
            )
        }
        return try convert(values[index], column: "\"\(name)\"")
    }

    private func index(of name: String) -> Int? {
        columnNames.firstIndex(of: name)
            ?? columnNames.firstIndex { $0.lowercased() == name.lowercased() }
    }

    private func convert<T: SQLiteValueConvertible>(_ value: SQLiteValue, column: String) throws -> T {
        guard let converted = T(sqliteValue: value) else {
            throw SQLiteError.conversionFailure(value, to: T.self, column: column, sql: nil)
        }
        return converted
    }
}
