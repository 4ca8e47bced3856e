/// What a backend (with all its copies) did with llama-server's slot files: for tests, benchmarks and logs.
///
/// ```swift
/// let statistics = await model.slotCacheStatistics
/// print(statistics.saves, statistics.saveMilliseconds)   // 3 saves, 41.7 ms on the server
/// ```
public struct SlotCacheStatistics: Sendable, Equatable, CustomStringConvertible {
    /// Slots saved to their holder's file.
    public var saves = 0
    /// Saves the server refused or that failed (the cache is then only in the server's memory, if at all).
    public var failedSaves = 0
    /// Slots restored from a key's file.
    public var restores = 0
    /// Restores that failed: no file yet (a key's first use), a file the server could not read. Harmless: the
    /// request then processes its whole prompt, as without caches.
    public var failedRestores = 0
    /// Bytes the server wrote in saves, as it reported them (`n_written`).
    public var savedBytes = 0
    /// Bytes the server read in restores, as it reported them (`n_read`).
    public var restoredBytes = 0
    /// The server's time for the saves (`timings.save_ms`), or the wall time where it does not report it.
    public var saveMilliseconds = 0.0
    /// The server's time for the restores (`timings.restore_ms`), or the wall time where it does not report it.
    public var restoreMilliseconds = 0.0
    /// Prewarm requests sent.
    public var prewarms = 0
    /// Prewarms skipped or cancelled because a real request came first.
    public var cancelledPrewarms = 0

    /// Creates empty statistics.
    public init() {}

    /// The counts, for logs.
    public var description: String {
        "\(saves) saves (\(failedSaves) failed), \(restores) restores (\(failedRestores) failed), "
            + "\(prewarms) prewarms (\(cancelledPrewarms) cancelled)"
    }
}
