// Long, CPU-bound, synchronous work run on a thread of its own, off Swift's cooperative pool. The pool has as many
// threads as the machine has cores (two here): a synchronous loop that runs for seconds on one of them holds it, and
// two such loops hold them all, so every other task (a server's handlers, a turn waiting for its model, a deadline
// that would end a hung request) waits, and a deadline measured on the wall clock passes for no fault of its own.
// Used by the fuzzers' slices in the test suite and by anything else that computes for long without suspending.
// `package`: for Parley's own modules, not for apps.

import Foundation

/// Runs `work` on a new thread of its own and returns its result, suspending the calling task (which holds no thread
/// meanwhile) until it is done. Errors thrown by `work` are rethrown.
///
/// For work that runs for a while without suspending (parsing thousands of generated documents, a fuzzer's loop); a
/// short computation is cheaper where it is. Cancelling the calling task does not stop `work`: check for it inside.
///
/// - Parameter work: The computation.
/// - Returns: What `work` returned.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.name = "parley-off-the-pool"
        thread.start()
    }
}

/// Runs `work`, which cannot throw, on a new thread of its own, as `offThePool(_:)` does.
///
/// - Parameter work: The computation.
/// - Returns: What `work` returned.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(returning: work())
        }
        thread.name = "parley-off-the-pool"
        thread.start()
    }
}
