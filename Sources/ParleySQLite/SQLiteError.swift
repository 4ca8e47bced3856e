internal import CSQLite

/// An error from SQLite, or from ParleySQLite while it talks to SQLite.
///
/// It carries SQLite's primary result code (``code``), the extended code that tells the cases apart
/// (``extendedCode``, for example `SQLITE_CONSTRAINT_UNIQUE`), SQLite's own message from `sqlite3_errmsg`,
/// and the SQL that failed. Errors that ParleySQLite detects itself (a missing named argument, a value
/// that cannot be read as the requested Swift type) use the closest SQLite code, such as
/// ``Code/range`` or ``Code/mismatch``, with a message of their own.
///
/// Recognise a kind of failure by its code:
///
/// ```swift
/// do {
///     try db.execute("INSERT INTO npc(name) VALUES (?)", ["Mira"])
/// } catch let error as SQLiteError where error.code == .constraint {
///     // The name is taken.
/// } catch SQLiteError.Code.busy {
///     // Another process holds the save file: retry later.
/// }
/// ```
///
/// ``description`` says what happened and what to do about it, so it can go to a log as it is.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code, such as ``Code/busy`` or ``Code/constraint``.
    public let code: Code

    /// The extended result code, which refines ``code`` (for example `SQLITE_CONSTRAINT_UNIQUE`, 2067).
    ///
    /// Its low 8 bits are ``code``. When SQLite gave no extended code, it equals `code.rawValue`.
    public let extendedCode: Int32

    /// The message, usually SQLite's own from `sqlite3_errmsg` (for example `"no such table: npc"`).
    public let message: String

    /// The SQL statement that failed, or `nil` when the failure was not tied to a statement
    /// (opening the file, reading a column of a ``Row``).
    public let sql: String?

    /// Creates an error from its parts.
    ///
    /// ParleySQLite creates these itself; this initializer exists for tests and for layers that
    /// translate their own failures into SQLite terms.
    ///
    /// - Parameters:
    ///   - extendedCode: The extended result code; its low 8 bits become ``code``.
    ///   - message: What SQLite (or the caller) said went wrong.
    ///   - sql: The statement that failed, if any.
    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = Code(rawValue: extendedCode & 0xFF)
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Creates an error with a primary code and a message of ParleySQLite's own.
    init(code: Code, message: String, sql: String? = nil) {
        self.init(extendedCode: code.rawValue, message: message, sql: sql)
    }

    /// Creates an error from a result code that SQLite just returned on `connection`.
    ///
    /// The message must be read before any other call on the connection, which would replace it.
    init(resultCode: Int32, connection: OpaquePointer?, sql: String?) {
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(resultCode))
        }
        self.init(extendedCode: resultCode, message: message, sql: sql)
    }

    /// What happened, where, and what to do about it, in a few sentences.
    ///
    /// For example: `SQLite error SQLITE_NOTADB (26): file is not a database. Statement: SELECT 1.
    /// The file is not an SQLite database, or it is encrypted or damaged: check the path, and restore
    /// the file from a backup if it should be a database.`
    public var description: String {
        var text = "SQLite error \(code)"
        if extendedCode != code.rawValue {
            text += " (extended code \(extendedCode))"
        }
        text += ": \(message)."
        if let sql {
            text += " Statement: \(sql)."
        }
        return text + " " + code.advice
    }
}
