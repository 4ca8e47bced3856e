import ChildProcess
import Foundation
import ParleyHTTP
import ParleyJSON
import Testing

/// The built `parley serve`, started by a test on a free loopback port with its own saves folder, the shipped
/// content and the scripted model, and stopped by it.
///
/// ```swift
/// try await ServedParley.with(saves: folder, token: token) { server in
///     let (status, state) = try await server.get("/v1/games/\(id)")
///     #expect(await server.stop() == .exited(0))
/// }
/// ```
final class ServedParley: Sendable {
    /// The base URL the server printed: `http://127.0.0.1:PORT`.
    let baseURL: String
    /// The bearer token every request carries, if the server requires one.
    let token: String?

    private let process: ChildProcess
    private let errorLog: URL
    private let client: HTTPClient

    /// Starts a server, runs `body`, and stops the server even when `body` throws.
    ///
    /// - Parameters:
    ///   - saves: The saves folder, created if missing.
    ///   - token: The bearer token the server requires (16 characters or more), or `nil` for none.
    ///   - content: The content pack, or `nil` for the shipped one (`Content`).
    ///   - arguments: More options for `parley serve`.
    ///   - descriptorLimit: The most file descriptors the server may open (`ulimit -n`, set by `/bin/sh` before it
    ///     runs the server), or `nil` for the test's own limit.
    ///   - body: The test.
    /// - Returns: What `body` returns.
    /// - Throws: A start failure with the server's standard error, or what `body` throws.
    static func with<T>(
        saves: URL, token: String?, content: URL? = nil, arguments: [String] = [], descriptorLimit: Int? = nil,
        _ body: (ServedParley) async throws -> T
    ) async throws -> T {
        let server = try await ServedParley(
            saves: saves, token: token, content: content, arguments: arguments, descriptorLimit: descriptorLimit)
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
    private init(
        saves: URL, token: String?, content: URL?, arguments extra: [String], descriptorLimit: Int?
    ) async throws {
        let binary = ParleyBinary.productsDirectory.appendingPathComponent("parley")
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "no parley binary next to the tests at \(binary.path); build it with 'swift build --product parley'")
        try FileManager.default.createDirectory(at: saves, withIntermediateDirectories: true)
        let output = saves.deletingLastPathComponent().appendingPathComponent("serve.out")
        errorLog = saves.deletingLastPathComponent().appendingPathComponent("serve.err")
        self.token = token
        client = try HTTPClient()
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_TOKEN"] = token
        let arguments =
            [
                "serve", "--content", (content ?? ParleyBinary.packageRoot.appendingPathComponent("Content")).path,
                "--saves", saves.path, "--model", "scripted", "--port", "0",
            ] + extra
        // A lower descriptor limit is set by the shell, which then becomes the server (`exec`): same process id.
        let (program, launched) =
            descriptorLimit.map { limit in
                ("/bin/sh", ["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", binary.path] + arguments)
            } ?? (binary.path, arguments)
        process = try ChildProcess.launch(
            program,
            arguments: launched,
            environment: environment, directory: ParleyBinary.packageRoot.path,
            output: .file(output.path), error: .file(errorLog.path))
        do {
            baseURL = try await Self.firstLine(of: output, printedBy: process, errors: errorLog)
        } catch {
            process.send(SIGKILL)
            process.waitForExit()
            throw error
        }
    }

    deinit {
        // A last resort: `with` has stopped it already.
        process.send(SIGKILL)
        process.waitForExit()
    }

    /// What the server wrote to its standard error so far, for failure messages.
    var errorOutput: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    /// Stops the server as Ctrl-C would (SIGTERM: it saves every game and exits), or with SIGKILL when it has not
    /// exited ten seconds later or the task is cancelled.
    ///
    /// - Returns: How it ended; the same on every call.
    @discardableResult
    func stop() async -> ChildProcess.Termination {
        if process.isRunning {
            process.send(SIGTERM)
            let deadline = ContinuousClock.now + .seconds(10)
            while process.isRunning, ContinuousClock.now < deadline, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(50))
            }
            process.send(SIGKILL)
        }
        return process.waitForExit()
    }

    /// `GET path` with the bearer token.
    ///
    /// - Parameter path: The path, for example `/v1/saves`.
    /// - Returns: The status and the body as JSON.
    /// - Throws: When there is no answer, or it is not JSON.
    func get(_ path: String) async throws -> (status: Int, json: JSONValue) {
        let headers: HTTPHeaders = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        let response = try await client.execute(.get(baseURL + path, headers: headers))
        return (response.status, try JSONValue(parsing: Array(response.body)))
    }

    /// The first line of a file a process writes, once it is there.
    private static func firstLine(of file: URL, printedBy process: ChildProcess, errors: URL) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if let end = text.firstIndex(of: "\n") { return String(text[..<end]) }
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            guard process.isRunning else {
                throw StartFailure(description: "parley serve exited before printing its URL:\n\(log)")
            }
            guard ContinuousClock.now < deadline else {
                throw StartFailure(description: "parley serve printed no URL within 60 s:\n\(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A server that did not start.
    struct StartFailure: Error, CustomStringConvertible {
        /// What happened, with the server's standard error.
        var description: String
    }
}
