import Foundation
import Testing

/// Runs the built `parley` binary, as a player or a modder would.
enum ParleyProcess {
    /// What a run printed and returned.
    struct Run {
        var status: Int32
        var out: String
        var err: String
    }

    /// The directory SwiftPM builds products into: the one holding the test bundle.
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    /// Runs `parley` in `directory` with `input` on its standard input and `environment` added to the process's.
    /// Writing to a pipe whose reader has exited raises SIGPIPE, which would end the whole test process: ignored
    /// once, so that the write fails with EPIPE instead.
    static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    static func run(
        _ arguments: [String], in directory: URL, input: String? = nil, environment: [String: String] = [:]
    ) throws -> Run {
        let binary = productsDirectory.appendingPathComponent("parley")
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "no parley binary next to the tests at \(binary.path); build it with 'swift build --product parley'")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        merged["PARLEY_MODEL"] = merged["PARLEY_MODEL"] ?? "scripted"
        process.environment = merged
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            // A game that exits before it has read all its input (a usage error, a refused folder) closes the pipe:
            // that is its answer, not the test's failure. `write(contentsOf:)` throws EPIPE where `write(_:)` traps.
            ignoreBrokenPipes
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        let errors = ErrorReader(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
            err: String(decoding: errors.wait(), as: UTF8.self))
    }

    /// Reads a pipe to its end on a thread of its own, so a full pipe cannot block the other.
    final class ErrorReader: @unchecked Sendable {
        // `data` is written by the thread before it finishes and read only after `isFinished`.
        private var data = Data()
        private var thread: Thread?

        init(_ handle: FileHandle) {
            let thread = Thread { [unowned self] in self.data = handle.readDataToEndOfFile() }
            self.thread = thread
            thread.start()
        }

        func wait() -> Data {
            while thread?.isFinished == false { usleep(1_000) }
            return data
        }
    }
}
