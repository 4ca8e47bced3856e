import Foundation

/// Runs blocking `work` (waiting for a process, reading a pipe to its end) on a thread of its own and returns its
/// result. The caller's task is suspended meanwhile and holds no thread of the cooperative pool, which runs every
/// test's async work and has only as many threads as the machine has cores: tests that wait for processes then
/// cannot stall the model turns of the tests running beside them.
///
/// Record issues (`#expect`, `#require`) in the caller, not in `work`: the thread is outside the test's task.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
