internal import CSQLite

extension SQLiteError {
    /// An SQLite primary result code, such as `SQLITE_BUSY`, with a static member for each code that
    /// callers act on.
    ///
    /// Compare with `==`, or match in a `catch` clause: `catch SQLiteError.Code.busy { ... }`.
    /// The full list is at https://www.sqlite.org/rescode.html.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The numeric code, as in `<sqlite3.h>` (`SQLITE_BUSY` is 5).
        public let rawValue: Int32

        /// Creates a code from its number.
        ///
        /// - Parameter rawValue: A primary result code; pass `extendedCode & 0xFF` for an extended one.
        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        // MARK: - Codes

        /// `SQLITE_ERROR`: a generic error, most often an SQL syntax error or a missing table or column.
        public static let error = Code(rawValue: SQLITE_ERROR)
        /// `SQLITE_PERM`: the operating system refused access to the file.
        public static let permission = Code(rawValue: SQLITE_PERM)
        /// `SQLITE_ABORT`: an operation was aborted, for example by a rollback.
        public static let abort = Code(rawValue: SQLITE_ABORT)
        /// `SQLITE_BUSY`: another connection or process holds a conflicting lock, and the busy timeout ran out.
        public static let busy = Code(rawValue: SQLITE_BUSY)
        /// `SQLITE_LOCKED`: a conflict inside the same connection (a table in use by another statement).
        public static let locked = Code(rawValue: SQLITE_LOCKED)
        /// `SQLITE_NOMEM`: SQLite could not allocate memory.
        public static let noMemory = Code(rawValue: SQLITE_NOMEM)
        /// `SQLITE_READONLY`: a write on a read-only connection or file.
        public static let readOnly = Code(rawValue: SQLITE_READONLY)
        /// `SQLITE_INTERRUPT`: the operation was interrupted.
        public static let interrupt = Code(rawValue: SQLITE_INTERRUPT)
        /// `SQLITE_IOERR`: the operating system reported an I/O error.
        public static let ioError = Code(rawValue: SQLITE_IOERR)
        /// `SQLITE_CORRUPT`: the database file is damaged.
        public static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        /// `SQLITE_FULL`: the disk is full (or the database reached its size limit).
        public static let full = Code(rawValue: SQLITE_FULL)
        /// `SQLITE_CANTOPEN`: the file could not be opened (missing, a directory, no permission).
        public static let cannotOpen = Code(rawValue: SQLITE_CANTOPEN)
        /// `SQLITE_SCHEMA`: the schema changed under a prepared statement.
        public static let schema = Code(rawValue: SQLITE_SCHEMA)
        /// `SQLITE_TOOBIG`: a string or blob is larger than SQLite's limit.
        public static let tooBig = Code(rawValue: SQLITE_TOOBIG)
        /// `SQLITE_CONSTRAINT`: a UNIQUE, NOT NULL, CHECK, PRIMARY KEY or FOREIGN KEY constraint was violated;
        /// ``SQLiteError/extendedCode`` tells which kind.
        public static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        /// `SQLITE_MISMATCH`: a value has the wrong type, including a column read as a Swift type that
        /// cannot hold it.
        public static let mismatch = Code(rawValue: SQLITE_MISMATCH)
        /// `SQLITE_MISUSE`: the API was used in a way SQLite does not allow.
        public static let misuse = Code(rawValue: SQLITE_MISUSE)
        /// `SQLITE_RANGE`: a parameter or column index or name that the statement does not have.
        public static let range = Code(rawValue: SQLITE_RANGE)
        /// `SQLITE_NOTADB`: the file is not an SQLite database (or is encrypted, or its header is damaged).
        public static let notADatabase = Code(rawValue: SQLITE_NOTADB)

        // MARK: - Matching

        /// Matches any error that is an ``SQLiteError`` with this primary code, so that
        /// `catch SQLiteError.Code.busy` works.
        ///
        /// - Parameters:
        ///   - pattern: The code to look for.
        ///   - error: The error being matched.
        /// - Returns: `true` when `error` is an ``SQLiteError`` whose ``SQLiteError/code`` is `pattern`.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? SQLiteError)?.code == pattern
        }

        // MARK: - Text

        /// The C name and number, for example `SQLITE_BUSY (5)`.
        public var description: String {
            "\(Self.names[rawValue] ?? "SQLite result code") (\(rawValue))"
        }

        private static let names: [Int32: String] = [
            SQLITE_ERROR: "SQLITE_ERROR", SQLITE_INTERNAL: "SQLITE_INTERNAL", SQLITE_PERM: "SQLITE_PERM",
            SQLITE_ABORT: "SQLITE_ABORT", SQLITE_BUSY: "SQLITE_BUSY", SQLITE_LOCKED: "SQLITE_LOCKED",
            SQLITE_NOMEM: "SQLITE_NOMEM", SQLITE_READONLY: "SQLITE_READONLY", SQLITE_INTERRUPT: "SQLITE_INTERRUPT",
            SQLITE_IOERR: "SQLITE_IOERR", SQLITE_CORRUPT: "SQLITE_CORRUPT", SQLITE_NOTFOUND: "SQLITE_NOTFOUND",
            SQLITE_FULL: "SQLITE_FULL", SQLITE_CANTOPEN: "SQLITE_CANTOPEN", SQLITE_PROTOCOL: "SQLITE_PROTOCOL",
            SQLITE_EMPTY: "SQLITE_EMPTY", SQLITE_SCHEMA: "SQLITE_SCHEMA", SQLITE_TOOBIG: "SQLITE_TOOBIG",
            SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT", SQLITE_MISMATCH: "SQLITE_MISMATCH",
            SQLITE_MISUSE: "SQLITE_MISUSE", SQLITE_NOLFS: "SQLITE_NOLFS", SQLITE_AUTH: "SQLITE_AUTH",
            SQLITE_FORMAT: "SQLITE_FORMAT", SQLITE_RANGE: "SQLITE_RANGE", SQLITE_NOTADB: "SQLITE_NOTADB",
        ]

        /// What to do about an error with this code: one sentence, for ``SQLiteError/description``.
        var advice: String {
            switch self {
            case .busy:
                "Another connection or process holds a lock on the database: retry later, give the connection a "
                    + "longer busy timeout, or start write transactions as IMMEDIATE."
            case .locked:
                "Another statement on the same connection is using the table: finish or reset it first."
            case .corrupt:
                "The database file is damaged: run an integrity check, and restore the file from a backup."
            case .notADatabase:
                "The file is not an SQLite database, or it is encrypted or damaged: check the path, and restore "
                    + "the file from a backup if it should be a database."
            case .full:
                "The disk (or the database's size limit) is full: free some space and try again."
            case .readOnly:
                "The database is open read-only, or its file or directory is not writable: open it read-write, "
                    + "or check the permissions of the file and of its directory (SQLite creates -wal and -shm "
                    + "files beside it)."
            case .cannotOpen:
                "SQLite cannot open the file: check that the path is right, that its directory exists, and that "
                    + "this process may read it (and, to write, create files in its directory)."
            case .permission:
                "The operating system denied access to the file: check its permissions."
            case .constraint:
                "The change violates a constraint (UNIQUE, NOT NULL, CHECK, PRIMARY KEY or FOREIGN KEY) and the "
                    + "failing statement was undone: fix the data or the statement."
            case .mismatch:
                "A value has the wrong type for where it is used: check the column's contents and the Swift type "
                    + "it is read as."
            case .range:
                "The statement has no such parameter or column: check the SQL against the arguments and names used."
            case .misuse:
                "The SQLite API was used in a way it does not allow: see the message, and fix the calling code."
            case .ioError:
                "The operating system reported an I/O error on the file: check the disk and file system, then retry."
            case .noMemory:
                "SQLite ran out of memory: free some memory and retry."
            case .tooBig:
                "A string or blob exceeds SQLite's size limit: store less in one value."
            case .schema:
                "The schema changed under a prepared statement: prepare it again."
            case .interrupt, .abort:
                "The operation was interrupted or aborted before it finished: retry it if it is still wanted."
            default:
                "Check the SQL and the database file; the code is explained at https://www.sqlite.org/rescode.html."
            }
        }
    }
}
