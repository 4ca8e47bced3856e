internal import CSQLite
import Foundation

extension Statement {
    /// How many columns each row of this statement has (0 for statements that return no rows).
    public var columnCount: Int {
        Int(sqlite3_column_count(handle))
    }

    /// The names of the columns, in order: the `AS` alias if there is one, otherwise SQLite's choice
    /// (usually the column name).
    public var columnNames: [String] {
        (0..<columnCount).map(columnName(at:))
    }

    /// The name of the column at `index`.
    ///
    /// - Parameter index: A column index, from 0 to ``columnCount`` - 1.
    /// - Returns: The column's name.
    public func columnName(at index: Int) -> String {
        precondition(index >= 0 && index < columnCount, "column \(index) is out of range 0..<\(columnCount)")
        return sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The value of the column at `index` in the current row, in its storage class.
    ///
    /// Call it only after ``step()`` returned `true`.
    ///
    /// - Parameter index: A column index, from 0 to ``columnCount`` - 1; an index out of range is a
    ///   programming error and stops the program.
    /// - Returns: The value, copied out of SQLite.
    public func value(at index: Int) -> SQLiteValue {
        precondition(index >= 0 && index < columnCount, "column \(index) is out of range 0..<\(columnCount)")
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // Read the pointer before the length, as SQLite documents; the length keeps inner "\0" bytes.
            guard let start = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            // An empty blob comes back as a NULL pointer, but it is still a blob.
            guard let start = sqlite3_column_blob(handle, column) else { return .blob(Data()) }
            return .blob(Data(bytes: start, count: Int(sqlite3_column_bytes(handle, column))))
        default:
            return .null
        }
    }

    /// The value of the column at `index` in the current row, as a Swift type.
    ///
    /// ```swift
    /// let name: String = try statement.column(at: 0)
    /// let portrait = try statement.column(at: 1, as: Data?.self)
    /// ```
    ///
    /// - Parameters:
    ///   - index: A column index, from 0 to ``columnCount`` - 1.
    ///   - type: The type to read; inferred when the result has a declared type.
    /// - Returns: The converted value.
    /// - Throws: ``SQLiteError`` with code ``SQLiteError/Code/mismatch`` when the value cannot be read as
    ///   `T` (see ``SQLiteValueConvertible/init(sqliteValue:)``); read `T?` to allow NULL.
    public func column<T: SQLiteValueConvertible>(at index: Int, as type: T.Type = T.self) throws -> T {
        let value = value(at: index)
        guard let converted = T(sqliteValue: value) else {
            throw SQLiteError.conversionFailure(
                value, to: T.self, column: "\(index) (\(columnName(at: index)))", sql: sql)
        }
        return converted
    }

    /// The current row, copied into a ``Row`` that outlives the statement.
    ///
    /// - Returns: Every column's name and value.
    public func row() -> Row {
        Row(columnNames: columnNames, values: (0..<columnCount).map(value(at:)))
    }
}

extension SQLiteError {
    /// The error for a stored value that a Swift type cannot hold. It names the storage class but not the
    /// value, which may be large or private.
    static func conversionFailure(
        _ value: SQLiteValue, to type: Any.Type, column: String, sql: String?
    ) -> SQLiteError {
        SQLiteError(
            code: .mismatch,
            message: "column \(column) holds \(value.storageClass), which cannot be read as \(type)",
            sql: sql
        )
    }
}
