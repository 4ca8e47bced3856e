import Dispatch
import Synchronization

/// One database connection shared safely between tasks and threads: each call gets the connection to
/// itself, one at a time.
///
/// ```swift
/// let queue = try DatabaseQueue(path: "slot1.parley")
/// try queue.write { db in
///     try db.execute("INSERT INTO turn(number) VALUES (?)", [turn])
/// }
/// let turns = try queue.read { db in try db.scalar("SELECT count(*) FROM turn", as: Int.self) ?? 0 }
/// ```
///
/// ``read(_:)`` and ``write(_:)`` are synchronous and block the calling thread while another call holds the
/// connection. SQLite calls are short, so this is fine from most code; from a task, where a blocked thread is one
/// of the cooperative pool's few, use ``asyncWrite(_:)`` and ``asyncRead(_:)``, which run on the queue's own
/// thread while the task is suspended (a write with `synchronous = FULL` waits for the disk).
///
/// The closures must not let the ``Database``, or a ``Statement`` made from it, escape: that would use the
/// connection outside the lock. Returning them is a compile-time error (results are `sending`); do not
/// store them in outside variables either. Calling `read` or `write` on the same queue from inside a
/// closure deadlocks.
public final class DatabaseQueue: @unchecked Sendable {
    // @unchecked Sendable: `connection` is not Sendable, and every use of it, and its change to nil by `close()`,
    // happens inside `lock.withLock`, so only one thread touches the connection at a time. Nothing else is
    // mutable.
    private let lock = Mutex(())
    /// The connection, or `nil` once ``close()`` ran.
    private var connection: Database?

    /// The path the database was opened with.
    public let path: String

    /// Where ``asyncWrite(_:)`` and ``asyncRead(_:)`` run their work, one call at a time: a serial dispatch queue,
    /// whose threads are not the cooperative pool's, so a task waiting for the disk holds none of the pool's.
    let worker = DispatchQueue(label: "parley.sqlite.database-queue")

    /// Opens the database at `path` and takes ownership of the connection.
    ///
    /// - Parameters:
    ///   - path: A file path, or `":memory:"`.
    ///   - options: How to open and configure the connection.
    /// - Throws: ``SQLiteError`` as ``Database/init(path:options:)`` does.
    public init(path: String, options: DatabaseOptions = DatabaseOptions()) throws {
        self.connection = try Database(path: path, options: options)
        self.path = path
    }

    /// Closes the connection now rather than when the queue is released; later calls throw
    /// ``SQLiteError/Code/misuse``. Closing twice does nothing.
    ///
    /// When it is the file's last connection, SQLite writes a write-ahead log back into the database and removes
    /// the `-wal` and `-shm` files, so the database is one self-contained file again.
    public func close() {
        lock.withLock { _ in connection = nil }
    }

    /// Whether ``close()`` has run.
    public var isClosed: Bool { lock.withLock { _ in connection == nil } }

    /// The open connection; call only while holding `lock`.
    private func openConnection() throws -> Database {
        guard let connection else {
            throw SQLiteError(code: .misuse, message: "the database \"\(path)\" was closed", sql: nil)
        }
        return connection
    }

    /// Runs `body` with the connection in a read-only, deferred transaction.
    ///
    /// Everything `body` reads comes from one snapshot of the database. Writes fail with
    /// ``SQLiteError/Code/readOnly`` (the connection is put in `query_only` mode meanwhile).
    ///
    /// - Parameter body: The reads to do; it receives the connection.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or ``SQLiteError`` when starting or ending the read fails.
    public func read<T>(_ body: (Database) throws -> sending T) throws -> sending T {
        try lock.withLock { _ throws -> sending T in
            let database = try openConnection()
            try database.execute(sql: "PRAGMA query_only = ON")
            // Turning query_only off again cannot fail in practice; if it did, later writes would report
            // SQLITE_READONLY, which is loud, so the error is not worth replacing the result with.
            defer { try? database.execute(sql: "PRAGMA query_only = OFF") }
            try database.beginTransaction(.deferred)
            let result: T
            do {
                result = try body(database)
            } catch {
                database.rollbackIgnoringErrors()
                throw error
            }
            try database.commitOrRollback()
            return result
        }
    }

    /// Runs `body` with the connection in an immediate transaction: commits when `body` returns, rolls
    /// back when it throws.
    ///
    /// Nested ``Database/transaction(_:_:)`` calls inside `body` become savepoints.
    ///
    /// - Parameter body: The work to do; it receives the connection.
    /// - Returns: What `body` returned, once committed.
    /// - Throws: What `body` threw, after rolling back; or ``SQLiteError`` when beginning or committing
    ///   fails (for example ``SQLiteError/Code/busy`` when another process holds the write lock past the
    ///   busy timeout), in which case nothing was committed.
    public func write<T>(_ body: (Database) throws -> sending T) throws -> sending T {
        try lock.withLock { _ throws -> sending T in
            let database = try openConnection()
            try database.beginTransaction(.immediate)
            let result: T
            do {
                result = try body(database)
            } catch {
                database.rollbackIgnoringErrors()
                throw error
            }
            try database.commitOrRollback()
            return result
        }
    }

    /// Runs `body` with the connection and no transaction around it.
    ///
    /// For what cannot run in a transaction (`VACUUM`, changing the journal mode), or manages its own
    /// transactions (``Migrator/migrate(_:)-(DatabaseQueue)``). Each statement in `body` commits on its own
    /// unless `body` opens a transaction.
    ///
    /// - Parameter body: The work to do; it receives the connection.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw.
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> sending T) throws -> sending T {
        try lock.withLock { _ throws -> sending T in
            try body(try openConnection())
        }
    }
}
