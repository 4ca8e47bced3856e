import ChildProcess
import Foundation
import Testing

/// A real child process each time: `/bin/sh` and `/usr/bin/env` are on every machine the tests run on.
@Suite struct ChildProcessTests {
    @Test func aProgramRunsToItsEndWithItsOutputsAndStatus() throws {
        let run = try ChildProcess.run("/bin/sh", arguments: ["-c", "printf out; printf err >&2; exit 3"])
        #expect(run.termination == .exited(3))
        #expect(String(decoding: run.output, as: UTF8.self) == "out")
        #expect(String(decoding: run.error, as: UTF8.self) == "err")
    }

    @Test func inputReachesTheChildAndEndsWhenClosed() throws {
        let run = try ChildProcess.run("/bin/sh", arguments: ["-c", "cat; echo done"], input: Data("a\nb\n".utf8))
        #expect(String(decoding: run.output, as: UTF8.self) == "a\nb\ndone\n")
        // Without input, standard input is /dev/null: it ends at once.
        let empty = try ChildProcess.run("/bin/sh", arguments: ["-c", "cat; echo end"])
        #expect(String(decoding: empty.output, as: UTF8.self) == "end\n")
    }

    @Test func theEnvironmentAndWorkingDirectoryAreTheOnesGiven() throws {
        let directory = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
        let run = try ChildProcess.run(
            "/bin/sh", arguments: ["-c", "echo $GREETING; pwd"], environment: ["GREETING": "hello", "PATH": "/bin"],
            directory: directory)
        #expect(String(decoding: run.output, as: UTF8.self) == "hello\n\(directory)\n")
    }

    @Test func aSignalEndsTheChildAndIsReportedAsSuch() throws {
        let child = try ChildProcess.launch("/bin/sh", arguments: ["-c", "sleep 30"], output: .null, error: .null)
        #expect(child.isRunning)
        child.send(SIGKILL)
        #expect(child.waitForExit() == .signalled(SIGKILL))
        #expect(!child.isRunning)
        #expect(child.waitForExit() == .signalled(SIGKILL))
    }

    @Test func theChildGetsNoneOfThisProcesssDescriptorsNorItsIgnoredSignals() throws {
        ChildProcess.ignoreBrokenPipes()
        // A descriptor this process holds open without close-on-exec is still closed in the child.
        // A high number, so that no descriptor the child opens itself (ls reading /proc/self/fd) can have it.
        let opened = open("/dev/null", O_RDONLY)
        let leaked = fcntl(opened, F_DUPFD, 700)
        close(opened)
        defer { close(leaked) }
        #expect(leaked >= 700)
        let fds = try ChildProcess.run("/bin/sh", arguments: ["-c", "ls /proc/self/fd"])
        let open = String(decoding: fds.output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        #expect(!open.contains(leaked), "open in the child: \(open)")
        // SIGPIPE is ignored here, but a child writing to a closed pipe still dies of it.
        let killed = try ChildProcess.launch("/usr/bin/env", arguments: ["yes"], output: .pipe, error: .null)
        try killed.standardOutput?.close()
        #expect(killed.waitForExit() == .signalled(SIGPIPE))
    }

    @Test func standardErrorCanJoinStandardOutputAndOutputCanGoToAFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let child = try ChildProcess.launch(
            "/bin/sh", arguments: ["-c", "echo one; echo two >&2"], output: .file(file), error: .standardOutput)
        #expect(child.waitForExit() == .exited(0))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "one\ntwo\n")
    }

    @Test func aMissingProgramIsALaunchError() {
        #expect(throws: ChildProcess.LaunchError.self) {
            try ChildProcess.run("/nonexistent/program")
        }
    }

    @Test func manyChildrenAtOnceFromManyThreads() async throws {
        // What crashed Foundation's Process.run(): spawning from many threads while many descriptors are open.
        let held = (0..<200).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }
        defer { for fd in held { close(fd) } }
        try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<64 {
                group.addTask {
                    try ChildProcess.run("/bin/sh", arguments: ["-c", "exit \(index % 7)"]).termination.status
                }
            }
            var statuses: [Int32] = []
            for try await status in group { statuses.append(status) }
            #expect(statuses.sorted() == (0..<64).map { Int32($0 % 7) }.sorted())
        }
    }
}
