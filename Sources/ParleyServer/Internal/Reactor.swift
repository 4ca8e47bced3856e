import Foundation
import Glibc
import ParleyBasics
import Synchronization

/// The one thread of a server that waits for sockets: tasks ask it to wake them when a descriptor is ready, a
/// deadline passes, or the server begins to stop, and it does so with `poll(2)`.
///
/// Every socket of the server is non-blocking. A task tries its `recv`/`send`/`accept` first and only when the
/// call would block does it ``wait(for:events:until:wakesOnDrain:)``; the reactor keeps the waiting
/// continuations and resumes each exactly once: with ``Outcome/ready(_:)``, ``Outcome/timedOut`` when its
/// deadline passes, ``Outcome/cancelled`` when its task is cancelled, ``Outcome/draining`` (for waits that
/// asked for it) once ``drain()`` ran, or ``Outcome/stopped`` after ``shutDown()``. Nothing of the cooperative
/// thread pool ever blocks on a socket.
///
/// Each registration writes a byte to a pipe that the poll loop watches, so the loop picks up new waits at once.
/// The loop rebuilds its `pollfd` array each round: linear in the number of waits, which is fine for the few
/// hundred connections a server allows.
final class Reactor: Sendable {
    /// How a wait ended.
    enum Outcome: Sendable, Equatable {
        /// The descriptor reported these `poll` events.
        case ready(Int16)
        /// The deadline passed first.
        case timedOut
        /// The waiting task was cancelled.
        case cancelled
        /// The server began to stop, and the wait asked to be woken for that.
        case draining
        /// The reactor shut down.
        case stopped
    }

    private struct Waiter {
        let descriptor: Int32
        let events: Int16
        let deadline: ContinuousClock.Instant?
        let wakesOnDrain: Bool
        /// `nil` between registration and the moment the task hands over its continuation.
        var continuation: CheckedContinuation<Outcome, Never>?
        /// Set when the task was cancelled before it handed over its continuation.
        var isCancelled = false
    }

    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        /// Descriptors to close between two polls, each with what to do once it is closed.
        var pendingCloses: [(descriptor: Int32, then: (@Sendable () -> Void)?)] = []
        var nextID: UInt64 = 0
        var isDraining = false
        var isShuttingDown = false
        var hasExited = false
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    /// The pipe the poll loop watches: a byte written to `wakeWriter` wakes it.
    private let wakeReader: Int32
    private let wakeWriter: Int32

    /// Creates the reactor; ``start()`` starts its thread.
    ///
    /// - Throws: ``HTTPServerError`` when no pipe can be made (out of descriptors).
    init() throws(HTTPServerError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw .systemCall("pipe", errno: errno) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        wakeReader = descriptors[0]
        wakeWriter = descriptors[1]
    }

    deinit {
        // Here rather than when the thread ends, so that a late `wake()` never writes to a reused descriptor.
        _ = Glibc.close(wakeReader)
        _ = Glibc.close(wakeWriter)
    }

    /// Starts the poll thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "ParleyServer.reactor"
        thread.start()
    }

    /// Whether ``drain()`` ran.
    var isDraining: Bool { state.withLock { $0.isDraining } }

    /// Waits until `descriptor` has one of `events` (or an error or hang-up), `deadline` passes, the task is
    /// cancelled, or, when `wakesOnDrain`, the server begins to stop.
    ///
    /// - Parameters:
    ///   - descriptor: The descriptor to watch.
    ///   - events: The `poll` events, for example `POLLIN`.
    ///   - deadline: When to give up; `nil` for never.
    ///   - wakesOnDrain: Whether ``drain()`` ends the wait (for waits between requests, not within one).
    /// - Returns: How the wait ended.
    func wait(
        for descriptor: Int32, events: Int16, until deadline: ContinuousClock.Instant?, wakesOnDrain: Bool = false
    ) async -> Outcome {
        let registered: UInt64? = state.withLock { state in
            guard !state.isShuttingDown, !(wakesOnDrain && state.isDraining) else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.waiters[id] = Waiter(
                descriptor: descriptor, events: events, deadline: deadline, wakesOnDrain: wakesOnDrain)
            return id
        }
        guard let id = registered else {
            return state.withLock { $0.isShuttingDown } ? .stopped : .draining
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: Outcome? = state.withLock { state in
                    guard var waiter = state.waiters[id] else { return .stopped }
                    if waiter.isCancelled {
                        state.waiters[id] = nil
                        return .cancelled
                    }
                    if waiter.wakesOnDrain && state.isDraining {
                        state.waiters[id] = nil
                        return .draining
                    }
                    waiter.continuation = continuation
                    state.waiters[id] = waiter
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                } else {
                    wake()
                }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Outcome, Never>? = state.withLock { state in
                guard var waiter = state.waiters[id] else { return nil }
                guard let continuation = waiter.continuation else {
                    waiter.isCancelled = true
                    state.waiters[id] = waiter
                    return nil
                }
                state.waiters[id] = nil
                return continuation
            }
            if let continuation {
                continuation.resume(returning: .cancelled)
                // The loop may be polling this descriptor: let it poll without it.
                wake()
            }
        }
    }

    /// Closes a descriptor on the poll thread, between two polls, then runs `then`.
    ///
    /// A descriptor closed while a `poll` that includes it is running stays open until that poll returns: the
    /// kernel holds the file for the poll, so a connection closed that way sends no FIN and a listener keeps its
    /// port. Closing between polls avoids that, and a descriptor number is never reused while a poll still
    /// watches it. After ``shutDown()`` the descriptor is closed at once.
    func close(_ descriptor: Int32, then: (@Sendable () -> Void)? = nil) {
        let closeNow = state.withLock { state in
            guard !state.hasExited else { return true }
            state.pendingCloses.append((descriptor, then))
            return false
        }
        if closeNow {
            _ = Glibc.close(descriptor)
            then?()
        } else {
            wake()
        }
    }

    /// Sleeps until `deadline`, unless the task is cancelled or, when `wakesOnDrain`, the server begins to stop.
    ///
    /// - Returns: `true` when the deadline passed.
    func sleep(until deadline: ContinuousClock.Instant, wakesOnDrain: Bool) async -> Bool {
        await wait(for: -1, events: 0, until: deadline, wakesOnDrain: wakesOnDrain) == .timedOut
    }

    /// Wakes every wait that asked for it with ``Outcome/draining``, now and from now on.
    func drain() {
        let woken: [CheckedContinuation<Outcome, Never>] = state.withLock { state in
            state.isDraining = true
            var woken: [CheckedContinuation<Outcome, Never>] = []
            for (id, waiter) in state.waiters where waiter.wakesOnDrain {
                if let continuation = waiter.continuation {
                    woken.append(continuation)
                    state.waiters[id] = nil
                }
            }
            return woken
        }
        woken.forEach { $0.resume(returning: .draining) }
        wake()
    }

    /// Ends the poll thread: every remaining wait, and every later one, ends with ``Outcome/stopped``.
    func shutDown() {
        let woken: [CheckedContinuation<Outcome, Never>] = state.withLock { state in
            state.isShuttingDown = true
            defer { state.waiters.removeAll() }
            return state.waiters.values.compactMap(\.continuation)
        }
        woken.forEach { $0.resume(returning: .stopped) }
        wake()
    }

    /// Waits until the poll thread has exited after ``shutDown()``.
    func waitUntilExited() async {
        await withCheckedContinuation { continuation in
            let exited = state.withLock { state in
                if !state.hasExited { state.exitWaiters.append(continuation) }
                return state.hasExited
            }
            if exited { continuation.resume() }
        }
    }

    // MARK: - The poll thread

    private func wake() {
        // When the pipe is full, the loop is already due to wake: the failed write changes nothing.
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWriter, &byte, 1)
    }

    private func run() {
        var descriptors: [pollfd] = []
        var ids: [UInt64] = []
        while true {
            descriptors.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0))
            closePending()
            let (isDone, nearest): (Bool, ContinuousClock.Instant?) = state.withLock { state in
                if state.isShuttingDown { return (true, nil) }
                var nearest: ContinuousClock.Instant?
                for (id, waiter) in state.waiters where waiter.continuation != nil {
                    // A descriptor of -1 is ignored by poll: a plain timer.
                    descriptors.append(pollfd(fd: waiter.descriptor, events: waiter.events, revents: 0))
                    ids.append(id)
                    if let deadline = waiter.deadline, nearest.map({ deadline < $0 }) ?? true { nearest = deadline }
                }
                return (false, nearest)
            }
            if isDone { break }
            var timeout: Int32 = -1
            if let nearest {
                let left = nearest - .now
                // Rounded up, so that the loop never wakes just before a deadline and spins.
                timeout = left <= .zero ? 0 : Int32(clamping: left.milliseconds(rounded: .up))
            }
            let count = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if count < 0 && errno != EINTR {
                // EINVAL (more descriptors than RLIMIT_NOFILE) or ENOMEM: back off rather than spin; deadlines
                // still pass below.
                usleep(1_000)
            }
            if descriptors[0].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 256)
                while Glibc.read(wakeReader, &drained, drained.count) == drained.count {}
            }
            let now = ContinuousClock.now
            let resumed: [(CheckedContinuation<Outcome, Never>, Outcome)] = state.withLock { state in
                var resumed: [(CheckedContinuation<Outcome, Never>, Outcome)] = []
                for (index, id) in ids.enumerated() {
                    guard let waiter = state.waiters[id], let continuation = waiter.continuation else { continue }
                    let events = count > 0 ? descriptors[index + 1].revents : 0
                    if events != 0 {
                        resumed.append((continuation, .ready(events)))
                    } else if let deadline = waiter.deadline, deadline <= now {
                        resumed.append((continuation, .timedOut))
                    } else {
                        continue
                    }
                    state.waiters[id] = nil
                }
                return resumed
            }
            for (continuation, outcome) in resumed { continuation.resume(returning: outcome) }
        }
        let (exitWaiters, closes) = state.withLock { state in
            state.hasExited = true
            defer {
                state.exitWaiters.removeAll()
                state.pendingCloses.removeAll()
            }
            return (state.exitWaiters, state.pendingCloses)
        }
        for (descriptor, then) in closes {
            _ = Glibc.close(descriptor)
            then?()
        }
        exitWaiters.forEach { $0.resume() }
    }

    /// Closes the descriptors handed to ``close(_:then:)``; on the poll thread, between polls.
    private func closePending() {
        let closes = state.withLock { state in
            defer { state.pendingCloses.removeAll() }
            return state.pendingCloses
        }
        for (descriptor, then) in closes {
            _ = Glibc.close(descriptor)
            then?()
        }
    }
}
