import ChildProcess
import Foundation

/// Godot 3 without a window (`godot3-server`, Debian's package of that name), for the tests that run the Godot
/// example in `Examples/godot` against `parley serve`.
///
/// ```swift
/// let run = try await GodotHeadless.run(
///     project: project, arguments: ["--url=\(url)"], home: folder, timeLimit: .seconds(120))
/// run.termination   // .exited(0), or nil when it was killed at the time limit
/// ```
///
/// The binary is `PARLEY_GODOT`, else `godot3-server` on the `PATH`. Tests that need it are skipped when it is not
/// installed, unless `PARLEY_GODOT_TESTS=1` (as `scripts/test` sets), when they fail instead: the same switch as
/// the tests that need llama-server (`LlamaServerProcess` and `PARLEY_LLM_TESTS`).
enum GodotHeadless {
    /// The binary's path, if installed.
    static var executable: String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["PARLEY_GODOT"], !path.isEmpty {
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let path = URL(fileURLWithPath: String(directory)).appendingPathComponent("godot3-server").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Whether the tests that need Godot run: it is installed, or `PARLEY_GODOT_TESTS=1` demands it.
    static var testsEnabled: Bool { executable != nil || isRequired }

    /// Whether the environment demands the Godot tests (`PARLEY_GODOT_TESTS=1`).
    static var isRequired: Bool { ProcessInfo.processInfo.environment["PARLEY_GODOT_TESTS"] == "1" }

    /// Says how to enable the tests that need Godot.
    static let howToEnable =
        "needs Godot 3 headless (godot3-server): run scripts/install-deps --godot (or scripts/test, which installs it "
        + "and runs these tests), or name the binary in PARLEY_GODOT"

    /// The error a test fails with when Godot is demanded but missing.
    struct NotInstalled: Error, CustomStringConvertible {
        var description: String {
            let named = ProcessInfo.processInfo.environment["PARLEY_GODOT"].map { " (PARLEY_GODOT is \($0))" } ?? ""
            return "godot3-server is not installed\(named); \(GodotHeadless.howToEnable)"
        }
    }

    /// What a run of Godot did.
    struct Run {
        /// How it ended; `nil` when it was still running at the time limit and was killed.
        var termination: ChildProcess.Termination?
        /// Its standard output and error, interleaved as written.
        var output: String

        /// The value of the first line that starts with `prefix`, trimmed (`game id: ` gives the game's id).
        func value(after prefix: String) -> String? {
            output.split(separator: "\n").first { $0.hasPrefix(prefix) }
                .map { $0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Runs a project's main scene headless until it quits or the time limit passes; then it is killed. It is
    /// killed too when the calling task is cancelled.
    ///
    /// Godot writes its settings and user data under `HOME` and the XDG folders: they are set to `home`, so a run
    /// touches nothing outside it and the project. `PARLEY_URL` and `PARLEY_TOKEN` are not inherited.
    ///
    /// - Parameters:
    ///   - project: The folder holding `project.godot`.
    ///   - arguments: The arguments after `--path PROJECT`, which the project's scripts read.
    ///   - environment: Variables to add.
    ///   - home: An empty folder for Godot's settings and user data; created if missing.
    ///   - timeLimit: How long it may run.
    /// - Returns: How it ended and what it printed.
    /// - Throws: `NotInstalled`, a launch failure, or `CancellationError` (after killing it).
    static func run(
        project: URL, arguments: [String], environment: [String: String] = [:], home: URL, timeLimit: Duration
    ) async throws -> Run {
        guard let executable else { throw NotInstalled() }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let log = home.appendingPathComponent("godot.log")
        var variables = ProcessInfo.processInfo.environment
        variables["PARLEY_URL"] = nil
        variables["PARLEY_TOKEN"] = nil
        variables["HOME"] = home.path
        variables["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        variables["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        variables["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        // Godot 3.2 reads its locale from LANG and logs an error for "C" (or C.UTF-8, as in containers).
        variables["LANG"] = "en_US.UTF-8"
        variables["LC_ALL"] = nil
        variables.merge(environment) { $1 }
        let process = try ChildProcess.launch(
            executable, arguments: ["--path", project.path] + arguments, environment: variables,
            output: .file(log.path), error: .standardOutput)
        let deadline = ContinuousClock.now + timeLimit
        do {
            while process.isRunning, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        } catch {
            process.send(SIGKILL)
            process.waitForExit()
            throw error
        }
        var termination: ChildProcess.Termination? = nil
        if process.isRunning {
            process.send(SIGKILL)
            process.waitForExit()
        } else {
            termination = process.waitForExit()
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Run(termination: termination, output: output)
    }
}
