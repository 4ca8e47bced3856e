/// When a transaction takes its locks: SQLite's `BEGIN DEFERRED`, `BEGIN IMMEDIATE` and
/// `BEGIN EXCLUSIVE`.
public enum TransactionKind: String, Sendable, Hashable {
    /// Takes no lock until the first read or write. A deferred transaction that reads and then writes can
    /// fail with ``SQLiteError/Code/busy`` at the write, without waiting, if another connection wrote
    /// meanwhile; use it for reads.
    case deferred
    /// Takes the write lock at once, waiting up to the busy timeout for it. The safe choice for writes,
    /// and the default.
    case immediate
    /// Like ``immediate``; in rollback-journal mode it also keeps readers out. In WAL mode it is the same
    /// as ``immediate``.
    case exclusive
}
