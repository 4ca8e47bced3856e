/// How ``Database`` opens and configures a connection.
///
/// The defaults suit a save file that must survive the game being killed at any moment: write-ahead
/// logging, `synchronous = FULL`, a 5 second busy timeout, and foreign keys enforced.
///
/// ```swift
/// var options = DatabaseOptions()
/// options.access = .readOnly
/// let db = try Database(path: "slot1.parley", options: options)
/// ```
public struct DatabaseOptions: Sendable, Hashable {
    /// Whether the connection may write, and whether a missing file is created.
    public enum Access: Sendable, Hashable {
        /// Read and write; create the file (but not its directory) if it does not exist.
        case readWriteCreate
        /// Read and write an existing file; a missing file is an error (``SQLiteError/Code/cannotOpen``).
        case readWrite
        /// Read only; a missing file is an error, and every write fails with ``SQLiteError/Code/readOnly``.
        /// This holds even for a process running as root, which file permissions would not stop.
        case readOnly
    }

    /// The journal mode, which decides how SQLite makes transactions atomic. It is stored in the file.
    public enum JournalMode: String, Sendable, Hashable {
        /// Write-ahead logging: commits append to a `-wal` file beside the database, readers do not block
        /// the writer, and a process killed mid-transaction leaves the last commit intact.
        case wal
        /// The classic rollback journal, deleted after each transaction. Readers block the writer.
        case delete
    }

    /// How often SQLite waits for the disk to confirm writes (`PRAGMA synchronous`).
    ///
    /// Any level survives the game process being killed; the levels differ on an operating system
    /// crash or power loss.
    public enum Synchronous: String, Sendable, Hashable {
        /// Never waits. A power loss can corrupt the database.
        case off
        /// With WAL: the database stays consistent on power loss, but the last commits may be lost.
        case normal
        /// Waits at every commit: a commit that returned survives power loss too. The default.
        case full
        /// Like ``full``, and also syncs the directory after deleting a rollback journal.
        case extra
    }

    /// Whether the connection may write, and whether a missing file is created. Default: ``Access/readWriteCreate``.
    public var access: Access

    /// The journal mode to set when opening for writing. Default: ``JournalMode/wal``.
    ///
    /// A read-only connection keeps the file's mode. In-memory databases have no journal file and ignore it.
    public var journalMode: JournalMode

    /// The `synchronous` level. Default: ``Synchronous/full``.
    public var synchronous: Synchronous

    /// How long to wait for another connection's lock before failing with ``SQLiteError/Code/busy``.
    /// Default: 5 seconds; zero fails at once.
    public var busyTimeout: Duration

    /// Whether `FOREIGN KEY` constraints are enforced (`PRAGMA foreign_keys`). Default: `true`.
    public var foreignKeys: Bool

    /// Whether a file that is a symbolic link is refused (`SQLITE_OPEN_NOFOLLOW`): opening fails with
    /// ``SQLiteError/Code/cannotOpen`` instead of reading or writing the file the link points to. Default: `false`.
    public var refusesSymbolicLinks: Bool = false

    /// Whether a read-only connection treats the file as one no one changes while it is open (SQLite's
    /// `immutable` URI parameter). Default: `false`.
    ///
    /// Such a connection takes no locks and creates nothing beside the file: no `-wal` or `-shm` file appears,
    /// even for a database in write-ahead-log mode (a plain read-only connection creates both and leaves them).
    /// Use it only for a file no other connection is writing, for example a save whose game is not running: it
    /// reads the main file alone and ignores a write-ahead log. Ignored unless ``access`` is
    /// ``Access/readOnly``.
    public var immutable: Bool = false

    /// Whether SQLite checks each b-tree page more thoroughly as it reads it from the file (`PRAGMA
    /// cell_size_check`): the sizes and places of its cells, not only its header. Default: `false`.
    ///
    /// A damaged page is then found as soon as a query reads it, and reported as ``SQLiteError/Code/corrupt``,
    /// rather than being used (and, on a write, damage spreading). The cost is a little time per page read, not
    /// per row.
    public var checksCellSizes: Bool = false

    /// Creates options; every parameter has the default described on its property.
    ///
    /// - Parameters:
    ///   - access: Whether the connection may write, and whether a missing file is created.
    ///   - journalMode: The journal mode to set when opening for writing.
    ///   - synchronous: The `synchronous` level.
    ///   - busyTimeout: How long to wait for another connection's lock.
    ///   - foreignKeys: Whether foreign keys are enforced.
    public init(
        access: Access = .readWriteCreate,
        journalMode: JournalMode = .wal,
        synchronous: Synchronous = .full,
        busyTimeout: Duration = .seconds(5),
        foreignKeys: Bool = true
    ) {
        self.access = access
        self.journalMode = journalMode
        self.synchronous = synchronous
        self.busyTimeout = busyTimeout
        self.foreignKeys = foreignKeys
    }
}
