// The async side of DatabaseQueue, after GRDB's DatabaseWriter: the work runs on a thread of the queue's own (its
// serial dispatch queue), not on one of Swift's cooperative pool, which has as many threads as the machine has cores.
// A save that waits for fsync on the pool holds one of those threads, and with two cores two such saves stop every
// other task in the process (the other games' turns, a server's handlers) until the disk answers.

extension DatabaseQueue {
    /// Runs `body` as ``write(_:)`` does, in one immediate transaction, on the queue's own thread; the calling task is
    /// suspended meanwhile and holds no thread.
    ///
    /// Calls run one at a time, in the order they were made from one task, and one at a time with the synchronous
    /// calls too (they share the connection's lock). Cancelling the calling task does not stop a write that has been
    /// asked for: it commits or rolls back whole, as ``write(_:)`` does.
    ///
    /// ```swift
    /// try await queue.asyncWrite { db in
    ///     try db.execute("INSERT INTO turn(number) VALUES (?)", [turn])
    /// }
    /// ```
    ///
    /// - Parameter body: The work to do; it receives the connection, which it must not let escape.
    /// - Returns: What `body` returned, once committed.
    /// - Throws: What ``write(_:)`` throws.
    public func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            worker.async {
                continuation.resume(with: Result { try self.write { db -> T in try body(db) } })
            }
        }
    }

    /// Runs `body` as ``read(_:)`` does, in a read-only transaction, on the queue's own thread; the calling task is
    /// suspended meanwhile and holds no thread.
    ///
    /// - Parameter body: The reads to do; it receives the connection, which it must not let escape.
    /// - Returns: What `body` returned.
    /// - Throws: What ``read(_:)`` throws.
    public func asyncRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            worker.async {
                continuation.resume(with: Result { try self.read { db -> T in try body(db) } })
            }
        }
    }
}
