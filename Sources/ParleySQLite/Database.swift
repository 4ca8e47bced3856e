internal import CSQLite
import ParleyBasics

/// One connection to an SQLite database file: the owner of an `sqlite3*` handle.
///
/// Opening applies ``DatabaseOptions`` and reads the file's header, so a file that is not a database
/// fails here rather than at the first query. The handle is closed when the `Database` is released.
///
/// ```swift
/// let db = try Database(path: "slot1.parley")
/// try db.execute(sql: "CREATE TABLE IF NOT EXISTS npc(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
/// try db.transaction { db in
///     try db.execute("INSERT INTO npc(name) VALUES (?)", ["Mira"])
/// }
/// let names = try db.query("SELECT name FROM npc").map { try $0.get("name", as: String.self) }
/// ```
///
/// A `Database` is not `Sendable`: use it from one task or thread at a time. To share a connection,
/// give it to a ``DatabaseQueue``, which serializes access.
public final class Database {
    /// The path the database was opened with (`":memory:"` for an in-memory database).
    public let path: String

    /// The options the database was opened with.
    public let options: DatabaseOptions

    /// The connection. Statements keep their `Database` alive, so it outlives them.
    let handle: OpaquePointer

    /// How many savepoints ``transaction(_:_:)`` has open, to give nested ones distinct names.
    var savepointDepth = 0

    /// Opens (or, with ``DatabaseOptions/Access/readWriteCreate``, creates) the database at `path`.
    ///
    /// After opening, it turns on extended result codes, sets the busy timeout, turns on SQLite's
    /// defensive mode (no writes to the schema table through SQL) and turns off double-quoted string
    /// literals (so `"name"` is always an identifier), turns on `cell_size_check` when
    /// ``DatabaseOptions/checksCellSizes`` asks for it, reads the schema to check that the file is a
    /// database, then sets the journal mode, `synchronous` and `foreign_keys` from `options`.
    /// An empty (zero-byte) file is a valid, empty database.
    ///
    /// - Parameters:
    ///   - path: A file path, or `":memory:"` for a private in-memory database. The directory must exist.
    ///   - options: How to open and configure the connection.
    /// - Throws: ``SQLiteError``, its message naming the path: ``SQLiteError/Code/cannotOpen`` when the
    ///   file cannot be opened (missing directory, missing file when not creating, a directory),
    ///   ``SQLiteError/Code/notADatabase`` or ``SQLiteError/Code/corrupt`` when the file is not a usable
    ///   database, ``SQLiteError/Code/busy`` when another process holds the file locked past the timeout.
    public init(path: String, options: DatabaseOptions = DatabaseOptions()) throws {
        var connection: OpaquePointer?
        var flags = Self.openFlags(options.access)
        if options.refusesSymbolicLinks { flags |= SQLITE_OPEN_NOFOLLOW }
        var name = path
        if options.immutable, options.access == .readOnly, path != ":memory:" {
            // A URI filename: `%`, `?` and `#` are escaped so that the path reads back as it is.
            flags |= SQLITE_OPEN_URI
            name = "file:" + Self.uriEscaped(path) + "?mode=ro&immutable=1"
        }
        let result = sqlite3_open_v2(name, &connection, flags, nil)
        guard result == SQLITE_OK, let connection else {
            // SQLite usually allocates a handle even when opening fails; it holds the message, and must
            // be closed all the same. Closing nil is a no-op.
            let error = SQLiteError(resultCode: result, connection: connection, sql: nil)
            sqlite3_close_v2(connection)
            throw Self.openingError(error, path: path)
        }
        self.handle = connection
        self.path = path
        self.options = options
        // From here on every stored property is set, so if configuring throws, Swift runs deinit,
        // which closes the handle.
        do {
            try configure()
        } catch let error as SQLiteError {
            throw Self.openingError(error, path: path)
        }
    }

    deinit {
        // close_v2 (not close) so that a statement still alive elsewhere cannot make closing fail: the
        // handle then closes once that statement is finalized. Statements retain their Database, so in
        // practice none is left by now.
        sqlite3_close_v2(handle)
    }

    // MARK: - Statements

    /// Compiles one SQL statement, to bind and step it yourself.
    ///
    /// Prefer ``execute(_:_:)`` and ``query(_:_:)`` unless you run the same statement many times, or read
    /// rows without copying them into ``Row`` values.
    ///
    /// - Parameter sql: Exactly one SQL statement; a trailing `;`, spaces and comments are allowed.
    /// - Returns: The prepared statement, with no arguments bound.
    /// - Throws: ``SQLiteError`` when the SQL does not compile (code ``SQLiteError/Code/error`` for syntax
    ///   errors and unknown tables or columns), or when it holds no statement or more than one
    ///   (``SQLiteError/Code/misuse``; use ``execute(sql:)`` for a script).
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    // MARK: - State

    /// The rowid of the most recent successful `INSERT` on this connection, or 0 if there was none.
    public var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// How many rows the most recent `INSERT`, `UPDATE` or `DELETE` on this connection changed (not
    /// counting changes made by triggers or foreign key actions).
    public var changes: Int {
        Int(sqlite3_changes(handle))
    }

    /// Whether a transaction is open on this connection (`sqlite3_get_autocommit` is off).
    public var isInTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    // MARK: - Opening

    private static func openFlags(_ access: DatabaseOptions.Access) -> Int32 {
        switch access {
        case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: SQLITE_OPEN_READWRITE
        case .readOnly: SQLITE_OPEN_READONLY
        }
    }

    /// `path` with the characters a URI filename gives meaning to (`%`, `?`, `#`) percent-escaped.
    private static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Adds the path to an error raised while opening, since SQLite's messages ("unable to open database
    /// file") do not say which file.
    private static func openingError(_ error: SQLiteError, path: String) -> SQLiteError {
        SQLiteError(extendedCode: error.extendedCode, message: "\(error.message) (opening \"\(path)\")", sql: error.sql)
    }

    private func configure() throws {
        sqlite3_extended_result_codes(handle, 1)
        let milliseconds = options.busyTimeout.milliseconds(rounded: .towardZero)
        sqlite3_busy_timeout(handle, Int32(clamping: max(0, milliseconds)))
        try setConfiguration(SQLITE_DBCONFIG_DEFENSIVE, to: true)
        try setConfiguration(SQLITE_DBCONFIG_DQS_DDL, to: false)
        try setConfiguration(SQLITE_DBCONFIG_DQS_DML, to: false)
        // Before the first read, so that the schema's pages are checked too.
        if options.checksCellSizes { try execute(sql: "PRAGMA cell_size_check = ON") }

        // sqlite3_open_v2 does not read the file. Reading the schema does, so that a file that is not a
        // database fails while opening, with the path in the message.
        try execute(sql: "SELECT count(*) FROM sqlite_schema")

        if options.access != .readOnly {
            try setJournalMode(options.journalMode)
        }
        try execute(sql: "PRAGMA synchronous = \(options.synchronous.rawValue.uppercased())")
        try execute(sql: "PRAGMA foreign_keys = \(options.foreignKeys ? "ON" : "OFF")")
    }

    private func setConfiguration(_ option: Int32, to enabled: Bool) throws {
        var current: Int32 = 0
        let result = parley_sqlite3_db_config_int(handle, option, enabled ? 1 : 0, &current)
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: handle, sql: nil)
        }
    }

    private func setJournalMode(_ mode: DatabaseOptions.JournalMode) throws {
        let sql = "PRAGMA journal_mode = \(mode.rawValue.uppercased())"
        let actual = try scalar(sql, as: String.self)?.lowercased()
        // In-memory and temporary databases have no file name and keep their own journal mode.
        let isFileBacked = sqlite3_db_filename(handle, "main").map { $0.pointee != 0 } ?? false
        if isFileBacked, actual != mode.rawValue {
            throw SQLiteError(
                code: .error,
                message: "the journal mode is \"\(actual ?? "unknown")\", not \"\(mode.rawValue)\": the file "
                    + "system may not support it, or another connection prevents the change",
                sql: sql
            )
        }
    }
}

@available(*, unavailable, message: "A Database must be used by one task at a time; share it through a DatabaseQueue")
extension Database: Sendable {}
