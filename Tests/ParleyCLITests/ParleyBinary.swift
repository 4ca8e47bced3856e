import Foundation
import Testing

/// Where the built `parley` binary and the package are.
enum ParleyBinary {
    /// The package's root directory, where the commands run.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The directory SwiftPM builds products into: the one holding the test bundle. On Linux the bundle is an
    /// executable in that directory; on macOS it is a `.xctest` bundle inside it.
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    /// Writing to a pipe whose reader has exited raises SIGPIPE, which would end the whole test process: ignored
    /// once, so that the write fails with EPIPE instead.
    static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()
}

/// What a run of `parley` printed and returned.
struct ParleyRun {
    var status: Int32
    var out: String
    var err: String
}

/// Runs the built `parley` in the package's root, with `input` piped to its standard input.
///
/// The process runs and is waited for on a thread of its own: waiting then holds no thread of the cooperative pool,
/// which runs every test's async work and has only as many threads as the machine has cores.
func runParley(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:]
) async throws -> ParleyRun {
    let binary = ParleyBinary.productsDirectory.appendingPathComponent("parley")
    try #require(
        FileManager.default.isExecutableFile(atPath: binary.path),
        "no parley binary next to the tests at \(binary.path); build it with 'swift build --product parley'")
    return try await offThePool {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = ParleyBinary.packageRoot
        var environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        environment["PARLEY_MODEL"] = environment["PARLEY_MODEL"] ?? "scripted"
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            // A parley that exits before reading all its input closes the pipe: its answer, not the test's failure.
            // SIGPIPE ignored, `write(contentsOf:)` throws EPIPE where `write(_:)` would trap.
            ParleyBinary.ignoreBrokenPipes
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        // Read both pipes at once, so a full one cannot block the other.
        let errData = SendableBox()
        let errRead = DispatchSemaphore(value: 0)
        Thread {
            errData.data = err.fileHandleForReading.readDataToEndOfFile()
            errRead.signal()
        }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errRead.wait()
        return ParleyRun(
            status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
            err: String(decoding: errData.data, as: UTF8.self))
    }
}

/// Data handed from the reader thread.
final class SendableBox: @unchecked Sendable {
    // Written by the reader thread before it signals that it is done, read only after that signal.
    var data = Data()
}

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
