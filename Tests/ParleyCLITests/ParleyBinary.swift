import ChildProcess
import Foundation
import ParleyBasics
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
        var environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        environment["PARLEY_MODEL"] = environment["PARLEY_MODEL"] ?? "scripted"
        // A parley that exits before reading all its input closes the pipe: its answer, not the test's failure.
        let run = try ChildProcess.run(
            binary.path, arguments: arguments, environment: environment, directory: ParleyBinary.packageRoot.path,
            input: input.map { Data($0.utf8) })
        return ParleyRun(
            status: run.termination.status, out: String(decoding: run.output, as: UTF8.self),
            err: String(decoding: run.error, as: UTF8.self))
    }
}

