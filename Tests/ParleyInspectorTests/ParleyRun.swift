import ChildProcess
import Foundation
import ParleyBasics
import Testing

/// What a run of the built `parley` printed and returned.
struct ParleyRun {
    var status: Int32
    var out: String
    var err: String
}

/// Runs the built `parley` (next to the tests) in the package's root, off the cooperative pool.
func runParley(_ arguments: [String]) async throws -> ParleyRun {
    let binary = Bundle.main.bundleURL.appendingPathComponent("parley")
    try #require(
        FileManager.default.isExecutableFile(atPath: binary.path),
        "no parley binary next to the tests at \(binary.path); build it with 'swift build --product parley'")
    return try await offThePool {
        let run = try ChildProcess.run(
            binary.path, arguments: arguments, directory: InspectorFixture.root.path)
        return ParleyRun(
            status: run.termination.status, out: String(decoding: run.output, as: UTF8.self),
            err: String(decoding: run.error, as: UTF8.self))
    }
}
