import ChildProcess
import Foundation
import ParleyBasics
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `parley content check` and `parley test` on packs with a FIFO, a device, a symbolic link loop or an unreadable
/// folder where content is expected: each is reported with the file's path and what it is, and neither command
/// hangs.
@Suite struct ContentFileKindCLITests {
    /// A copy of the shipped content in a temporary folder that an unprivileged user may read.
    final class PackCopy: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-kinds-\(UUID().uuidString)")
        var content: URL { url.appendingPathComponent("Content") }

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            chmod(url.path, 0o755)
            try FileManager.default.copyItem(
                at: ParleyBinary.packageRoot.appendingPathComponent("Content"), to: content)
        }

        deinit {
            for folder in ["npcs", "tests"] { chmod(content.appendingPathComponent(folder).path, 0o755) }
            try? FileManager.default.removeItem(at: url)
        }

        func fifo(_ relative: String) throws {
            let path = content.appendingPathComponent(relative).path
            try? FileManager.default.removeItem(atPath: path)
            try #require(mkfifo(path, 0o644) == 0, "mkfifo \(relative) failed: errno \(errno)")
        }
    }

    /// Runs `parley` and gives up (failing) if it has not finished in `limit`: a command that hangs on a FIFO
    /// must fail the test, not stop the suite. With `unprivileged` and when the tests run as root, it runs as
    /// the user `nobody` through `setpriv`, so that file permissions apply.
    /// It polls with `Task.sleep` and waits for a stopped process off the pool, so it holds no thread of the
    /// cooperative pool while `parley` runs.
    func run(
        _ arguments: [String], unprivileged: Bool = false, limit: Duration = .seconds(120)
    ) async throws -> ParleyRun {
        let binary = ParleyBinary.productsDirectory.appendingPathComponent("parley")
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "no parley binary next to the tests at \(binary.path); build it with 'swift build --product parley'")
        var executable = binary.path
        var commandLine = arguments
        if unprivileged && geteuid() == 0 {
            let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
            try #require(
                FileManager.default.isExecutableFile(atPath: setpriv.path),
                "running as root, this test needs setpriv to run parley as an unprivileged user: install util-linux")
            executable = setpriv.path
            commandLine = ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_MODEL"] = "scripted"
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("parley-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = try ChildProcess.launch(
            executable, arguments: commandLine, environment: environment, directory: ParleyBinary.packageRoot.path,
            output: .file(output.path), error: .standardOutput)
        let deadline = ContinuousClock.now + limit
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            process.send(SIGTERM)
            Issue.record("parley \(arguments.joined(separator: " ")) hung: stopped after \(limit)")
        }
        let termination = await offThePool { process.waitForExit() }
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return ParleyRun(status: termination.status, out: text, err: "")
    }

    @Test(arguments: ["world.json", "items.json", "npcs/mira.json"])
    func contentCheckNamesAFIFO(file: String) async throws {
        let copy = try PackCopy()
        try copy.fifo(file)
        let result = try await run(["content", "check", copy.content.path])
        #expect(result.status == 1)
        #expect(
            result.out.contains("\(copy.content.path)/\(file): $: is a FIFO (named pipe), not a file"), "\(result.out)")
    }

    @Test func contentCheckNamesALinkLoopAndALinkToADevice() async throws {
        let copy = try PackCopy()
        let manager = FileManager.default
        let items = copy.content.appendingPathComponent("items.json")
        try manager.removeItem(at: items)
        try manager.createSymbolicLink(atPath: items.path, withDestinationPath: "items.json")
        let npc = copy.content.appendingPathComponent("npcs/pip.json")
        try manager.removeItem(at: npc)
        try manager.createSymbolicLink(atPath: npc.path, withDestinationPath: "/dev/zero")
        let result = try await run(["content", "check", copy.content.path])
        #expect(result.status == 1)
        #expect(
            result.out.contains(
                "\(copy.content.path)/items.json: $: is a symbolic link loop (following it leads back to it), not a file"
            ),
            "\(result.out)")
        #expect(
            result.out.contains(
                "\(copy.content.path)/npcs/pip.json: $: is a symbolic link to a character device, not a file"),
            "\(result.out)")
    }

    @Test func contentCheckCallsAnUnreadableNPCsFolderAnError() async throws {
        let copy = try PackCopy()
        try #require(chmod(copy.content.appendingPathComponent("npcs").path, 0) == 0)
        let result = try await run(["content", "check", copy.content.path], unprivileged: true)
        #expect(result.status == 1)
        #expect(
            result.out.contains("\(copy.content.path)/npcs: $: cannot be listed: permission denied"), "\(result.out)")
    }

    @Test func parleyTestNamesAFIFOPlanAndRunsTheOthers() async throws {
        let copy = try PackCopy()
        try copy.fifo("tests/zz_pipe.json")
        let result = try await run(["test", copy.content.path])
        #expect(result.status == 1)
        #expect(
            result.out.contains("FAIL \(copy.content.path)/tests/zz_pipe.json: $: is a FIFO (named pipe), not a file"),
            "\(result.out)")
        #expect(result.out.contains("PASS \(copy.content.path)/tests/mira.json"), "\(result.out)")
        #expect(result.out.hasSuffix("6 passed, 1 failed\n"), "\(result.out)")
    }

    @Test func parleyTestCallsAnUnreadableTestsFolderAnError() async throws {
        let copy = try PackCopy()
        try #require(chmod(copy.content.appendingPathComponent("tests").path, 0) == 0)
        let result = try await run(["test", copy.content.path], unprivileged: true)
        #expect(result.status == 1)
        #expect(
            result.out.contains("FAIL \(copy.content.path)/tests: $: cannot be listed: permission denied"),
            "\(result.out)")
    }
}
