import ChildProcess
import Foundation
import ParleyHTTP
import ParleyJSON
import Testing

/// The built `parley serve` (next to the tests), started by a test on a free loopback port with the scripted model,
/// a content pack and a save folder of the test's, and stopped by it as Ctrl-C stops it (SIGTERM: it saves every
/// game and exits).
///
/// ```swift
/// try await ParleyServeProcess.with(content: pack, saves: folder, arguments: ["--cors-origin", origin]) { parley in
///     let (status, state) = try await parley.json(.get, "/v1/games/\(id)")
/// }
/// ```
final class ParleyServeProcess: Sendable {
    /// The base URL the server printed: `http://127.0.0.1:PORT`.
    let baseURL: String

    private let process: ChildProcess
    private let errorLog: URL
    private let client: HTTPClient

    /// Starts a server, runs `body`, and stops the server even when `body` throws.
    ///
    /// - Parameters:
    ///   - content: The content pack's folder.
    ///   - saves: The save folder, created if missing; the server's output goes beside it.
    ///   - arguments: More options for `parley serve`.
    ///   - body: The test.
    /// - Returns: What `body` returns.
    /// - Throws: A start failure with the server's standard error, or what `body` throws.
    static func with<T>(
        content: URL, saves: URL, arguments: [String] = [], _ body: (ParleyServeProcess) async throws -> T
    ) async throws -> T {
        let server = try await ParleyServeProcess(content: content, saves: saves, arguments: arguments)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Starts `parley serve --port 0` and waits for the first line it prints, its base URL.
    private init(content: URL, saves: URL, arguments extra: [String]) async throws {
        let binary = Bundle.main.bundleURL.appendingPathComponent("parley")
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "no parley binary next to the tests at \(binary.path); build it with 'swift build --product parley'")
        try FileManager.default.createDirectory(at: saves, withIntermediateDirectories: true)
        let output = saves.deletingLastPathComponent().appendingPathComponent("serve.out")
        let errorLog = saves.deletingLastPathComponent().appendingPathComponent("serve.err")
        self.errorLog = errorLog
        client = try HTTPClient()
        process = try ChildProcess.launch(
            binary.path,
            arguments: [
                "serve", "--content", content.path, "--saves", saves.path, "--model", "scripted", "--port", "0",
            ] + extra,
            directory: InspectorFixture.root.path, output: .file(output.path), error: .file(errorLog.path))
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let end = text.firstIndex(of: "\n") {
                baseURL = String(text[..<end])
                return
            }
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.send(SIGKILL)
                process.waitForExit()
                let log = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
                throw StartFailure(description: "parley serve printed no URL:\n\(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit {
        // A last resort: `with` has stopped it already.
        process.send(SIGKILL)
        process.waitForExit()
    }

    /// What the server wrote to its standard error so far, for failure messages.
    var errorOutput: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    /// Stops the server as Ctrl-C would, or with SIGKILL when it has not exited 30 seconds later.
    ///
    /// - Returns: How it ended; the same on every call.
    @discardableResult
    func stop() async -> ChildProcess.Termination {
        if process.isRunning {
            process.send(SIGTERM)
            let deadline = ContinuousClock.now + .seconds(30)
            while process.isRunning, ContinuousClock.now < deadline, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(50))
            }
            process.send(SIGKILL)
        }
        return process.waitForExit()
    }

    /// Calls the server without a browser, as the game's back end or a test would.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path, for example `/v1/games`.
    ///   - headers: More header fields.
    /// - Returns: The answer, and its body as JSON (`.null` when it is not JSON).
    func call(
        _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:]
    ) async throws -> (response: HTTPResponse, json: JSONValue) {
        let response = try await client.execute(
            HTTPRequest(method: method, url: baseURL + path, headers: headers, timeout: .seconds(60)))
        return (response, (try? JSONValue(parsing: Array(response.body))) ?? .null)
    }

    /// A server that did not start.
    struct StartFailure: Error, CustomStringConvertible {
        /// What happened, with the server's standard error.
        var description: String
    }
}
