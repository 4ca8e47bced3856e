import Foundation

// MARK: - SQLiteValue

extension SQLiteValue: SQLiteValueConvertible {
    /// The value itself.
    public var sqliteValue: SQLiteValue { self }

    /// Wraps the value unchanged; never fails.
    ///
    /// - Parameter sqliteValue: Any stored value.
    public init?(sqliteValue: SQLiteValue) {
        self = sqliteValue
    }
}

// MARK: - Integers

extension Int64: SQLiteValueConvertible {
    /// The integer as ``SQLiteValue/integer(_:)``.
    public var sqliteValue: SQLiteValue { .integer(self) }

    /// Reads an integer, or a real with an integral value that fits in 64 bits (a column declared `REAL`
    /// stores `3` as `3.0`). Anything else, including text, gives `nil`.
    ///
    /// - Parameter sqliteValue: The value read from the database.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value
        case .real(let value):
            guard let exact = Int64(exactly: value) else { return nil }
            self = exact
        default: return nil
        }
    }
}

extension Int: SQLiteValueConvertible {
    /// The integer as ``SQLiteValue/integer(_:)``.
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }

    /// Reads what `Int64` reads, when it fits in `Int` (always, on 64-bit platforms).
    ///
    /// - Parameter sqliteValue: The value read from the database.
    public init?(sqliteValue: SQLiteValue) {
        guard let wide = Int64(sqliteValue: sqliteValue), let value = Int(exactly: wide) else { return nil }
        self = value
    }
}

extension Bool: SQLiteValueConvertible {
    /// `1` for `true`, `0` for `false`, as SQLite itself represents booleans.
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }

    /// Reads an integer: `0` is `false`, any other integer is `true` (SQL's own rule). Other storage
    /// classes give `nil`.
    ///
    /// - Parameter sqliteValue: The value read from the database.
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self = value != 0
    }
}

// MARK: - Double

extension Double: SQLiteValueConvertible {
    /// The number as ``SQLiteValue/real(_:)``. NaN cannot be stored; see ``SQLiteValue``.
    public var sqliteValue: SQLiteValue { .real(self) }

    /// Reads a real, or an integer converted to the nearest `Double` (`SELECT 1` yields an integer).
    /// Other storage classes give `nil`.
    ///
    /// - Parameter sqliteValue: The value read from the database.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

// MARK: - Text and bytes

extension String: SQLiteValueConvertible {
    /// The string as ``SQLiteValue/text(_:)``.
    public var sqliteValue: SQLiteValue { .text(self) }

    /// Reads text only; numbers and blobs give `nil`, so that a wrong column is noticed.
    ///
    /// - Parameter sqliteValue: The value read from the database.
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Data: SQLiteValueConvertible {
    /// The bytes as ``SQLiteValue/blob(_:)``. An empty `Data` is stored as an empty blob, not as NULL.
    public var sqliteValue: SQLiteValue { .blob(self) }

    /// Reads a blob only; text gives `nil`, so that a wrong column is noticed.
    ///
    /// - Parameter sqliteValue: The value read from the database.
    public init?(sqliteValue: SQLiteValue) {
        guard case .blob(let value) = sqliteValue else { return nil }
        self = value
    }
}

// MARK: - Optional

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    /// The wrapped value's, or ``SQLiteValue/null`` for `nil`.
    public var sqliteValue: SQLiteValue {
        switch self {
        case .none: .null
        case .some(let wrapped): wrapped.sqliteValue
        }
    }

    /// Reads `NULL` as `nil`, and anything else as `Wrapped` would; a value `Wrapped` cannot read still
    /// fails, rather than becoming `nil`.
    ///
    /// - Parameter sqliteValue: The value read from the database.
    public init?(sqliteValue: SQLiteValue) {
        if case .null = sqliteValue {
            self = .none
            return
        }
        guard let wrapped = Wrapped(sqliteValue: sqliteValue) else { return nil }
        self = .some(wrapped)
    }
}
