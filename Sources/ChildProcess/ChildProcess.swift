import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for the tests, the benchmarks and the test servers that run Parley's
/// executables and llama-server.
///
/// Foundation's `Process.run()` on Linux reads `/proc/self/fd` to close inherited descriptors and, in the toolchain
/// Parley builds with, copies each directory entry's whole 256-byte name field: when an entry sits at the end of
/// glibc's read buffer and the next page is unmapped, the copy faults and takes the whole test process down
/// (swift-corelibs-foundation fixed it upstream in 2026). This type spawns without that walk: every pipe it makes is
/// close-on-exec, and the child closes every descriptor from 3 up with `posix_spawn_file_actions_addclosefrom_np`.
///
/// ```swift
/// let run = try ChildProcess.run("/usr/bin/env", arguments: ["printf", "hi"])
/// run.termination == .exited(0)            // true
/// String(decoding: run.output, as: UTF8.self)  // "hi"
///
/// let server = try ChildProcess.launch(path, arguments: ["--port", "8080"], output: .file(log), error: .file(log))
/// server.send(SIGTERM)
/// server.waitForExit()
/// ```
///
/// The child starts with every signal at its default action and none blocked (a test process that ignores SIGPIPE
/// does not pass that on). Waiting blocks the calling thread: call it off Swift's cooperative pool.
public final class ChildProcess: @unchecked Sendable {
    // `@unchecked`: `termination` is guarded by `lock`; everything else is immutable after launch.

    /// Where a child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe: write to `standardInput`, then close it.
        case pipe
        /// A file, opened for reading.
        case file(String)
    }

    /// Where a child's standard output or error goes.
    public enum Output: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe: read it from `standardOutput` or `standardError`.
        case pipe
        /// A file, opened for appending (created if missing).
        case file(String)
        /// For standard error: wherever standard output goes.
        case standardOutput
        /// Wherever this process's goes.
        case inherit
    }

    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with a status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// The exit status, or the signal's number.
        public var status: Int32 {
            switch self {
            case .exited(let status), .signalled(let status): status
            }
        }

        /// `exit status 1` or `signal 9`.
        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    /// Why a child could not be started.
    public struct LaunchError: Error, Sendable, CustomStringConvertible {
        /// What failed, with the system's message.
        public var description: String
    }

    /// The child's process id.
    public let pid: pid_t
    /// The write end of the child's standard input, for `.pipe`.
    public let standardInput: FileHandle?
    /// The read end of the child's standard output, for `.pipe`.
    public let standardOutput: FileHandle?
    /// The read end of the child's standard error, for `.pipe`.
    public let standardError: FileHandle?

    private let lock = NSLock()
    private var termination: Termination?

    private init(pid: pid_t, input: FileHandle?, output: FileHandle?, error: FileHandle?) {
        self.pid = pid
        standardInput = input
        standardOutput = output
        standardError = error
    }

    /// Starts a program.
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: Its arguments, without the program's name.
    ///   - environment: Its whole environment; `nil` for this process's.
    ///   - directory: Its working directory; `nil` for this process's.
    ///   - input: Its standard input.
    ///   - output: Its standard output.
    ///   - error: Its standard error.
    /// - Returns: The running child.
    /// - Throws: `LaunchError` when a pipe, a file or the spawn fails (a missing program, say).
    public static func launch(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        directory: String? = nil, input: Input = .null, output: Output = .pipe, error: Output = .pipe
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The parent's ends of the pipes, and the child's ends to close in the parent once it has started.
        var parentEnds: [Int32: Int32] = [:]
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        func fail(_ what: String, _ code: Int32 = errno) -> LaunchError {
            for fd in parentEnds.values { close(fd) }
            return LaunchError(description: "\(what): \(String(cString: strerror(code)))")
        }
        func pipeFor(_ target: Int32, childReads: Bool) throws {
            var fds: [Int32] = [0, 0]
            guard Spawn.closeOnExecPipe(&fds) == 0 else { throw fail("cannot make a pipe") }
            let (child, parent) = childReads ? (fds[0], fds[1]) : (fds[1], fds[0])
            childEnds.append(child)
            parentEnds[target] = parent
            posix_spawn_file_actions_adddup2(&actions, child, target)
        }
        switch input {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .pipe: try pipeFor(0, childReads: true)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        }
        for (target, destination) in [(Int32(1), output), (Int32(2), error)] {
            switch destination {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .pipe: try pipeFor(target, childReads: false)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            case .standardOutput: posix_spawn_file_actions_adddup2(&actions, 1, target)
            case .inherit: break
            }
        }
        if let directory {
            guard let addChdir = Spawn.addChdir else { throw fail("cannot set a child's working directory", ENOSYS) }
            let code = addChdir(&actions, directory)
            guard code == 0 else { throw fail("cannot change to \(directory)", code) }
        }
        if let closeFrom = Spawn.addCloseFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
        let envp = variables + [nil]
        defer { for pointer in variables { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw fail("cannot start \(executable)", code) }
        func handle(_ fd: Int32) -> FileHandle? {
            parentEnds[fd].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        }
        return ChildProcess(pid: pid, input: handle(0), output: handle(1), error: handle(2))
    }

    /// Sends the child a signal (nothing happens once it has been waited for).
    ///
    /// - Parameter signal: The signal, for example `SIGTERM` or `SIGKILL`.
    public func send(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        guard termination == nil else { return }
        kill(pid, signal)
    }

    /// Whether the child is still running (an ended child is reaped here).
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard termination == nil else { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            termination = Self.termination(of: status)
            return false
        }
        return result == 0
    }

    /// Waits for the child to end, blocking this thread, and says how it ended.
    ///
    /// - Returns: How it ended; the same on every call.
    @discardableResult
    public func waitForExit() -> Termination {
        lock.lock()
        defer { lock.unlock() }
        if let termination { return termination }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                termination = .exited(-1)
                return .exited(-1)
            }
        }
        let ended = Self.termination(of: status)
        termination = ended
        return ended
    }

    private static func termination(of status: Int32) -> Termination {
        // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    // MARK: - Running to the end

    /// What a program did when run to its end.
    public struct Run: Sendable {
        /// How it ended.
        public var termination: Termination
        /// Everything it wrote to standard output.
        public var output: Data
        /// Everything it wrote to standard error.
        public var error: Data
    }

    /// Runs a program to its end: writes `input` to its standard input (then closes it), reads both outputs at
    /// once (a full pipe cannot block the other), and waits. Blocks the calling thread.
    ///
    /// A program that exits before reading all its input closes the pipe: the rest is dropped, not an error. (Write
    /// errors come back as EPIPE only where SIGPIPE is ignored, which `ignoreBrokenPipes()` does.)
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: Its arguments.
    ///   - environment: Its whole environment; `nil` for this process's.
    ///   - directory: Its working directory; `nil` for this process's.
    ///   - input: What to write to its standard input; `nil` for `/dev/null`.
    /// - Returns: How it ended and what it wrote.
    /// - Throws: `LaunchError` when it cannot be started.
    public static func run(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        directory: String? = nil, input: Data? = nil
    ) throws -> Run {
        ignoreBrokenPipes()
        let child = try launch(
            executable, arguments: arguments, environment: environment, directory: directory,
            input: input == nil ? .null : .pipe)
        let errors = PipeReader(child.standardError)
        if let input, let pipe = child.standardInput {
            try? pipe.write(contentsOf: input)
            try? pipe.close()
        }
        let output = (try? child.standardOutput?.readToEnd()) ?? nil
        let termination = child.waitForExit()
        return Run(termination: termination, output: output ?? Data(), error: errors.wait())
    }

    /// Makes writing to a pipe whose reader has gone fail with EPIPE instead of ending this process with SIGPIPE.
    /// Children still start with SIGPIPE at its default.
    public static func ignoreBrokenPipes() { _ = ignoringBrokenPipes }

    private static let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {
    // `data` is written by the thread before it signals `done`, and read only after that signal.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle?) {
        guard let handle else {
            done.signal()
            return
        }
        Thread { [self] in
            data = ((try? handle.readToEnd()) ?? nil) ?? Data()
            done.signal()
        }.start()
    }

    /// Blocks until the pipe has been read to its end and returns what it held.
    func wait() -> Data {
        done.wait()
        return data
    }
}

/// The glibc spawn extensions Swift's `Glibc` module does not declare, looked up once.
private enum Spawn {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    static let pipe2: Pipe2? = symbol("pipe2")

    /// A pipe whose two ends close on exec: `pipe2(O_CLOEXEC)`, atomically, where it exists; else `pipe` then
    /// `fcntl` (a child spawned in between still closes it, by `addclosefrom`).
    static func closeOnExecPipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 {
        if let pipe2 { return pipe2(fds, O_CLOEXEC) }
        guard pipe(fds) == 0 else { return -1 }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return 0
    }
    static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<T>(_ name: String) -> T? {
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(pointer, to: T.self)
    }
}
