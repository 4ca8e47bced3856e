import ChildProcess
import Foundation
import ParleyBasics
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
    ///
    /// The process runs and is waited for on a thread of its own (``offThePool(_:)``), so that waiting holds no
    /// thread of the cooperative pool.
    static func run(
        _ arguments: [String], in directory: URL, input: String? = nil, environment: [String: String] = [:]
    ) async throws -> Run {
        let binary = productsDirectory.appendingPathComponent("parley")
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "no parley binary next to the tests at \(binary.path); build it with 'swift build --product parley'")
        return try await offThePool {
            var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            merged["PARLEY_MODEL"] = merged["PARLEY_MODEL"] ?? "scripted"
            // A game that exits before it has read all its input (a usage error, a refused folder) closes the pipe:
            // that is its answer, not the test's failure.
            let run = try ChildProcess.run(
                binary.path, arguments: arguments, environment: merged, directory: directory.path,
                input: input.map { Data($0.utf8) })
            return Run(
                status: run.termination.status, out: String(decoding: run.output, as: UTF8.self),
                err: String(decoding: run.error, as: UTF8.self))
        }
    }
}

