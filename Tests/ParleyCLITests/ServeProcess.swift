import ChildProcess
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `parley serve`, started on a free loopback port with a save folder of its own, for tests that speak to
/// it as a game would: over HTTP only.
final class ServeProcess: Sendable {
    /// The running server.
    let process: ChildProcess
    /// The base URL it printed, `http://127.0.0.1:PORT`.
    let baseURL: String
    /// Its save folder, removed by `stop()`.
    let saves: URL

    private init(process: ChildProcess, baseURL: String, saves: URL) {
        self.process = process
        self.baseURL = baseURL
        self.saves = saves
    }

    /// Starts `parley serve --port 0 --saves <a new folder>` with more arguments, and waits for its URL.
    ///
    /// - Parameter arguments: More arguments (`--model`, `--token`).
    /// - Returns: The server.
    /// - Throws: When it cannot start or exits before printing its URL (its error output is in the message).
    static func start(_ arguments: [String] = []) async throws -> ServeProcess {
        let binary = ParleyBinary.productsDirectory.appendingPathComponent("parley")
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "no parley binary next to the tests at \(binary.path); build it with 'swift build --product parley'")
        let saves = FileManager.default.temporaryDirectory.appendingPathComponent("parley-serve-\(UUID().uuidString)")
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_MODEL"] = "scripted"
        environment["PARLEY_TOKEN"] = nil
        let process = try ChildProcess.launch(
            binary.path, arguments: ["serve", "--port", "0", "--saves", saves.path] + arguments,
            environment: environment, directory: ParleyBinary.packageRoot.path, error: .null)
        let line = try await offThePool { () -> String? in
            guard let output = process.standardOutput else { return nil }
            var bytes: [UInt8] = []
            while true {
                let chunk = output.readData(ofLength: 1)
                guard let byte = chunk.first else { return nil }
                if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(byte)
            }
        }
        guard let line, line.hasPrefix("http://") else {
            process.send(SIGKILL)
            _ = try? await offThePool { process.waitForExit() }
            throw ServeError(description: "parley serve printed no URL (\(line ?? "it exited"))")
        }
        return ServeProcess(process: process, baseURL: line, saves: saves)
    }

    /// Stops the server with SIGTERM, as a player's Ctrl-C would, and removes its save folder.
    ///
    /// - Returns: How it ended.
    @discardableResult
    func stop() async throws -> ChildProcess.Termination {
        process.send(SIGTERM)
        let termination = try await offThePool { self.process.waitForExit() }
        try? FileManager.default.removeItem(at: saves)
        return termination
    }

    /// A server that did not start.
    struct ServeError: Error, CustomStringConvertible {
        let description: String
    }
}
