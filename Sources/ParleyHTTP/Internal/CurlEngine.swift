internal import CCurl
import Foundation
import Synchronization

/// The thread-safe front of one libcurl multi handle and the dedicated thread that drives it.
///
/// Any thread may submit commands (start, cancel, unpause, shut down); the engine thread picks them up,
/// wakes from `curl_multi_poll` through `curl_multi_wakeup`, and runs every libcurl call itself (see
/// ``CurlEngineLoop``). Blocking in `curl_multi_poll` therefore never occupies a thread of Swift's cooperative
/// pool, and many transfers share the one thread.
///
/// `@unchecked Sendable`: `commands` is protected by its `Mutex`. `multi` is an immutable pointer used only
/// on the engine thread, with one exception: `curl_multi_wakeup`, which libcurl documents as callable from any
/// thread. It is called only while holding the `commands` lock and only while `acceptsCommands` is true. That
/// flag is cleared in the same critical section that queues `.shutDown`, and the engine thread cleans the multi
/// handle up only after it has taken that command, so no wakeup can follow the cleanup.
final class CurlEngine: @unchecked Sendable {
    enum Command: Sendable {
        case start(PreparedRequest, TransferChannel)
        case cancel(UInt64)
        case unpause(UInt64)
        case shutDown
    }

    private struct Queue {
        var commands: [Command] = []
        var acceptsCommands = true
    }

    /// The multi handle: for ``CurlEngineLoop`` on the engine thread only.
    let multi: UnsafeMutableRawPointer
    private let commands = Mutex(Queue())
    private let nextIdentifier = Atomic<UInt64>(1)

    /// Creates the multi handle and starts the engine thread.
    init() throws(HTTPClientError) {
        try CurlGlobal.initialize()
        guard let multi = curl_multi_init() else {
            throw HTTPClientError.transferFailed.with(url: "libcurl", detail: "curl_multi_init failed")
        }
        self.multi = multi
        let thread = Thread { [self] in
            CurlEngineLoop(engine: self).run()
        }
        thread.name = "ParleyHTTP.CurlEngine"
        thread.start()
    }

    /// A process-unique identifier for a new transfer.
    func makeIdentifier() -> UInt64 {
        nextIdentifier.add(1, ordering: .relaxed).oldValue
    }

    /// Starts a transfer, or fails its channel when the engine has shut down.
    func start(_ request: PreparedRequest, channel: TransferChannel) {
        if !submit(.start(request, channel)) {
            channel.finish(HTTPClientError.clientShutDown.with(url: request.redactedURL))
        }
    }

    /// Aborts a transfer; nothing happens when it already finished.
    func cancel(_ id: UInt64) {
        submit(.cancel(id))
    }

    /// Resumes a transfer paused because its reader fell behind.
    func unpause(_ id: UInt64) {
        submit(.unpause(id))
    }

    /// Fails every transfer with ``HTTPClientError/clientShutDown`` and ends the engine thread.
    func shutDown() {
        submit(.shutDown)
    }

    /// Queues a command and wakes the engine thread; `false` when the engine no longer accepts commands.
    @discardableResult
    private func submit(_ command: Command) -> Bool {
        commands.withLock { queue in
            guard queue.acceptsCommands else { return false }
            queue.commands.append(command)
            if case .shutDown = command { queue.acceptsCommands = false }
            // Under the lock: the engine thread cannot clean `multi` up while a wakeup is in progress.
            curl_multi_wakeup(multi)
            return true
        }
    }

    /// The commands submitted since the last call, in order (engine thread).
    func takeCommands() -> [Command] {
        commands.withLock { queue in
            defer { queue.commands.removeAll() }
            return queue.commands
        }
    }
}
