/// A Swift type that can be stored in an SQLite column and read back from one.
///
/// ParleySQLite provides conformances for `Int`, `Int64`, `Double`, `String`, `Data`, `Bool`,
/// ``SQLiteValue`` itself, and `Optional` of any of them (where `nil` is SQL `NULL`). Conform your own
/// types, such as identifiers or enums with raw values, by mapping them onto one of those:
///
/// ```swift
/// extension NPCID: SQLiteValueConvertible {
///     var sqliteValue: SQLiteValue { rawValue.sqliteValue }
///     init?(sqliteValue: SQLiteValue) {
///         guard let raw = String(sqliteValue: sqliteValue) else { return nil }
///         self.init(rawValue: raw)
///     }
/// }
/// ```
public protocol SQLiteValueConvertible {
    /// The value to store for this instance.
    var sqliteValue: SQLiteValue { get }

    /// Creates an instance from a stored value.
    ///
    /// Conversions are strict: a value that cannot represent this type exactly (text read as a number,
    /// `3.5` read as an integer, `NULL` read as a non-optional type) gives `nil`, which reading APIs report
    /// as an ``SQLiteError`` with code ``SQLiteError/Code/mismatch``.
    ///
    /// - Parameter sqliteValue: The value read from the database.
    init?(sqliteValue: SQLiteValue)
}
