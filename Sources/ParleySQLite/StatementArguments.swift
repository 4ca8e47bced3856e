/// The values bound to a statement's parameters: a list for positional parameters (`?`, `?NNN`), or a
/// dictionary for named ones (`:name`, `@name`, `$name`).
///
/// Write them as literals; values of different types mix, and `nil` is SQL `NULL`:
///
/// ```swift
/// try db.execute("INSERT INTO npc(name, level, portrait) VALUES (?, ?, ?)", ["Mira", 3, nil])
/// try db.execute("UPDATE npc SET level = :level WHERE name = :name", ["name": "Mira", "level": 4])
/// ```
///
/// Binding checks the arguments against the statement, so a typo fails loudly instead of binding NULL:
/// a list must have exactly one value per parameter, and a dictionary exactly one entry per named
/// parameter (keys may be written with or without the `:`, `@` or `$` prefix).
public enum StatementArguments: Sendable, Hashable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// Values for parameters 1, 2, 3, ... in order.
    case positional([SQLiteValue])
    /// Values for named parameters, keyed by name.
    case named([String: SQLiteValue])

    /// Creates positional arguments.
    ///
    /// - Parameter values: One value per parameter, in order; `nil` binds NULL.
    public init(_ values: [(any SQLiteValueConvertible)?]) {
        self = .positional(values.map { $0?.sqliteValue ?? .null })
    }

    /// Creates named arguments.
    ///
    /// - Parameter values: One value per named parameter; `nil` binds NULL.
    public init(_ values: [String: (any SQLiteValueConvertible)?]) {
        self = .named(values.mapValues { $0?.sqliteValue ?? .null })
    }

    /// Creates positional arguments from a list literal, such as `["Mira", 3, nil]`.
    ///
    /// - Parameter elements: One value per parameter, in order; `nil` binds NULL.
    public init(arrayLiteral elements: (any SQLiteValueConvertible)?...) {
        self.init(elements)
    }

    /// Creates named arguments from a dictionary literal, such as `["name": "Mira", "level": 3]`.
    ///
    /// If a name appears twice, the last value wins.
    ///
    /// - Parameter elements: Pairs of parameter name and value; `nil` binds NULL.
    public init(dictionaryLiteral elements: (String, (any SQLiteValueConvertible)?)...) {
        self = .named(
            Dictionary(elements.map { ($0.0, $0.1?.sqliteValue ?? .null) }, uniquingKeysWith: { _, last in last })
        )
    }
}
