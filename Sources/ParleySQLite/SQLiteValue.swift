import Foundation

/// One value as SQLite stores it: one of SQLite's five storage classes.
///
/// Every value written by ParleySQLite goes through this type, and every column read comes back as one.
/// Swift types convert to and from it through ``SQLiteValueConvertible``.
///
/// Two values SQLite cannot keep, and how ParleySQLite treats them:
/// - `Double.nan`: SQLite stores a bound NaN as NULL, which would silently change the data, so binding
///   `.real(.nan)` throws an ``SQLiteError`` with code ``SQLiteError/Code/mismatch``. Store `nil`, or a
///   sentinel value, instead. Infinities and the sign of `-0.0` are kept.
/// - Text that is not valid UTF-8 (written by another program): it is read with each invalid byte
///   sequence replaced by U+FFFD. Text written from Swift is always valid, and may contain `"\0"`.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer (`INTEGER` storage class).
    case integer(Int64)
    /// A 64-bit IEEE floating point number (`REAL` storage class). Must not be NaN when bound.
    case real(Double)
    /// UTF-8 text (`TEXT` storage class).
    case text(String)
    /// Bytes, kept exactly, zero bytes included (`BLOB` storage class).
    case blob(Data)

    /// The name of the storage class as SQLite's `typeof()` spells it: `null`, `integer`, `real`, `text`
    /// or `blob`.
    public var storageClass: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { true } else { false }
    }
}
