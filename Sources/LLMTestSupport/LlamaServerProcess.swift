import ChildProcess
import Foundation
import ParleyHTTP

/// A real llama-server with SmolLM2-135M-Instruct, started by a test on a free loopback port and stopped by it.
///
/// ```swift
/// try await LlamaServerProcess.with(contextSize: 1024) { server in
///     let model = try await OpenAICompatibleLanguageModel.connect(.init(baseURL: server.baseURL))
///     ...
/// }
/// ```
///
/// The binary and model come from `PARLEY_LLAMA_SERVER` and `PARLEY_LLM_MODEL`, or from the folder where
/// `scripts/llm-server install` puts them: `PARLEY_LLM_DIR` (as the script reads it; a second clone or worktree
/// can use the first one's installation), else the project's `.llm/`. Tests that need the server are skipped when it is not
/// installed, unless `PARLEY_LLM_TESTS=1` (as `scripts/test` and CI set), when they fail instead.
public final class LlamaServerProcess: Sendable {
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    /// The OpenAI-compatible base URL, `http://127.0.0.1:<port>/v1`.
    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }
    /// The server's root URL, for llama-server's own endpoints.
    public var rootURL: String { "http://127.0.0.1:\(port)" }
    /// The server's log file.
    public let logURL: URL

    private let process: ChildProcess

    /// Where the binary and the model are, if installed.
    public static var installation: (server: String, model: String)? {
        let environment = ProcessInfo.processInfo.environment
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder =
            environment["PARLEY_LLM_DIR"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? root.appendingPathComponent(".llm")
        let server = environment["PARLEY_LLAMA_SERVER"] ?? folder.appendingPathComponent("bin/llama-server").path
        let model =
            environment["PARLEY_LLM_MODEL"]
            ?? folder.appendingPathComponent("models/SmolLM2-135M-Instruct.gguf").path
        guard FileManager.default.isExecutableFile(atPath: server), FileManager.default.fileExists(atPath: model) else {
            return nil
        }
        return (server, model)
    }

    /// Whether the tests that need the server run: it is installed, or `PARLEY_LLM_TESTS=1` demands it.
    public static var testsEnabled: Bool { installation != nil || isRequired }

    /// Whether the environment demands the server tests (`PARLEY_LLM_TESTS=1`).
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["PARLEY_LLM_TESTS"] == "1" }

    /// Says how to enable the tests that need the server.
    public static let howToEnable =
        "needs the local LLM server: run scripts/llm-server install (or scripts/test, which installs it and runs these tests)"

    /// The error a test fails with when the server is demanded but missing.
    public struct NotInstalled: Error, CustomStringConvertible {
        /// Says what to do.
        public var description: String { "llama-server is not installed; \(LlamaServerProcess.howToEnable)" }
    }

    /// Starts a server, runs `body`, and stops the server even when `body` throws.
    ///
    /// - Parameters:
    ///   - contextSize: The server's `--ctx-size`.
    ///   - parallel: The server's `--parallel` slots (each gets `contextSize / parallel` tokens).
    ///   - slotSavePath: The folder for the server's slot files (`--slot-save-path`, created when missing), or
    ///     `nil` for a server without slot save and restore.
    ///   - arguments: More llama-server arguments.
    ///   - body: The test.
    /// - Returns: What `body` returns.
    /// - Throws: `NotInstalled`, a start failure with the server's log, or what `body` throws.
    public static func with<T>(
        contextSize: Int = 2048, parallel: Int = 1, slotSavePath: URL? = nil, arguments: [String] = [],
        _ body: (LlamaServerProcess) async throws -> T
    ) async throws -> T {
        // One server at a time in a test process: suites run in parallel, and several small models answering at
        // once on a two-core machine make every one of them miss its time limit.
        await turnstile.enter()
        do {
            let server = try await LlamaServerProcess(
                contextSize: contextSize, parallel: parallel, slotSavePath: slotSavePath, arguments: arguments)
            defer { server.stop() }
            let result = try await body(server)
            await turnstile.leave()
            return result
        } catch {
            await turnstile.leave()
            throw error
        }
    }

    /// Lets one ``with(contextSize:parallel:slotSavePath:arguments:_:)`` run at a time in this process.
    static let turnstile = Turnstile()

    /// A first-come, first-served lock for async code.
    actor Turnstile {
        private var isTaken = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        /// Waits until no one else is inside, then goes in.
        func enter() async {
            guard isTaken else {
                isTaken = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        /// Goes out, letting the next one in.
        func leave() {
            if waiting.isEmpty { isTaken = false } else { waiting.removeFirst().resume() }
        }
    }

    /// Starts a server and waits until it is healthy.
    ///
    /// - Parameters:
    ///   - contextSize: The server's `--ctx-size`.
    ///   - parallel: The server's `--parallel` slots.
    ///   - slotSavePath: The folder for the server's slot files (`--slot-save-path`, created when missing), or
    ///     `nil` for none.
    ///   - arguments: More llama-server arguments.
    /// - Throws: `NotInstalled`, or an error with the end of the server's log when it does not start.
    public init(
        contextSize: Int = 2048, parallel: Int = 1, slotSavePath: URL? = nil, arguments: [String] = []
    ) async throws {
        guard let installation = Self.installation else { throw NotInstalled() }
        var slotArguments: [String] = []
        if let slotSavePath {
            try FileManager.default.createDirectory(at: slotSavePath, withIntermediateDirectories: true)
            slotArguments = ["--slot-save-path", slotSavePath.path]
        }
        port = try Self.freePort()
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("parley-llama-\(port).log")
        try? FileManager.default.removeItem(at: logURL)
        process = try ChildProcess.launch(
            installation.server,
            arguments: [
                "--model", installation.model, "--alias", "SmolLM2-135M-Instruct", "--host", "127.0.0.1",
                "--port", String(port), "--ctx-size", String(contextSize), "--parallel", String(parallel),
                "--threads", "2",
            ] + slotArguments + arguments,
            output: .file(logURL.path), error: .standardOutput)
        try await waitUntilHealthy()
    }

    deinit { stop() }

    /// Stops the server (SIGTERM, then SIGKILL after two seconds).
    public func stop() {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        process.send(SIGKILL)
        process.waitForExit()
    }

    /// Kills the server at once with SIGKILL, as a crash would.
    public func kill() {
        guard process.isRunning else { return }
        process.send(SIGKILL)
        process.waitForExit()
    }

    /// The last lines of the server's log, for failure messages.
    public var logTail: String {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    private func waitUntilHealthy() async throws {
        let client = try HTTPClient()
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                throw StartFailure(description: "llama-server exited while starting:\n\(logTail)")
            }
            if let response = try? await client.execute(.get(rootURL + "/health")), response.status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        stop()
        throw StartFailure(description: "llama-server did not become healthy within 120 s:\n\(logTail)")
    }

    /// A server that did not start.
    public struct StartFailure: Error, CustomStringConvertible {
        /// What happened, with the server's log.
        public var description: String
    }

    /// A port that was free a moment ago, from binding port 0.
    private static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw StartFailure(description: "socket() failed: \(errno)") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) }
        }
        guard bound == 0 else { throw StartFailure(description: "bind() failed: \(errno)") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        guard named == 0 else { throw StartFailure(description: "getsockname() failed: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
