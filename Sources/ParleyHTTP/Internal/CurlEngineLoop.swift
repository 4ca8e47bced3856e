internal import CCurl
import Foundation

/// The body of the engine thread: every libcurl call on the multi handle and its easy handles happens here.
///
/// Not `Sendable`: it is created on the engine thread and never leaves it.
final class CurlEngineLoop {
    /// How long to sleep in `curl_multi_poll` with nothing to do; commands wake the thread earlier.
    private static let idlePollMilliseconds: Int32 = 60_000

    private let engine: CurlEngine
    private let multi: UnsafeMutableRawPointer
    private var transfers: [UInt64: CurlTransfer] = [:]

    init(engine: CurlEngine) {
        self.engine = engine
        multi = engine.multi
    }

    /// Runs until the engine shuts down, then releases every handle.
    func run() {
        while true {
            for command in engine.takeCommands() {
                switch command {
                case .start(let request, let channel): start(request, channel: channel)
                case .cancel(let id): remove(id, reason: HTTPClientError.cancelled)
                case .unpause(let id): transfers[id]?.unpause()
                case .shutDown:
                    for id in Array(transfers.keys) { remove(id, reason: HTTPClientError.clientShutDown) }
                    curl_multi_cleanup(multi)
                    return
                }
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinishedTransfers()
            let now = ContinuousClock.now
            expireIdleTransfers(now: now)
            if curl_multi_poll(multi, nil, 0, pollTimeout(now: now), nil) != CURLM_OK {
                // Should not happen; if it does, don't spin on a poll that fails at once.
                usleep(10_000)
            }
        }
    }

    private func start(_ request: PreparedRequest, channel: TransferChannel) {
        // Cancelled between submission and now: nothing to start.
        guard !channel.hasEnded else { return }
        do {
            let transfer = try CurlTransfer.make(request: request, channel: channel)
            let code = curl_multi_add_handle(multi, transfer.handle)
            guard code == CURLM_OK else {
                let reason = String(cString: curl_multi_strerror(code))
                channel.finish(HTTPClientError.transferFailed.with(url: request.redactedURL, detail: reason))
                return
            }
            transfer.restartIdleClock()
            transfers[channel.id] = transfer
        } catch {
            channel.finish(error)
        }
    }

    /// Takes a transfer out of the multi handle and releases it, failing its channel if it has not ended.
    private func remove(_ id: UInt64, reason: HTTPClientError) {
        guard let transfer = transfers.removeValue(forKey: id) else { return }
        curl_multi_remove_handle(multi, transfer.handle)
        transfer.channel.finish(reason.with(url: transfer.request.redactedURL))
    }

    private func collectFinishedTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE else { continue }
            // Read everything from the message first: removing the handle invalidates it.
            let code = message.pointee.data.result
            var context: UnsafeMutableRawPointer?
            _ = parley_curl_easy_getinfo_pointer(message.pointee.easy_handle, CURLINFO_PRIVATE, &context)
            guard let context else { continue }
            let transfer = CurlTransfer.from(context: context)
            let error = transfer.completionError(code)
            transfers.removeValue(forKey: transfer.channel.id)
            curl_multi_remove_handle(multi, transfer.handle)
            transfer.channel.finish(error)
        }
    }

    private func expireIdleTransfers(now: ContinuousClock.Instant) {
        for (id, transfer) in transfers {
            guard let deadline = transfer.idleDeadline, deadline <= now, let limit = transfer.request.idleTimeout
            else { continue }
            remove(id, reason: HTTPClientError.idleTimeout.with(url: transfer.request.redactedURL, limit: limit))
        }
    }

    /// The time until the nearest idle deadline; libcurl shortens it further for its own timers.
    private func pollTimeout(now: ContinuousClock.Instant) -> Int32 {
        var timeout = Self.idlePollMilliseconds
        for transfer in transfers.values {
            guard let deadline = transfer.idleDeadline else { continue }
            let milliseconds = CurlTransfer.milliseconds(max(.zero, deadline - now))
            timeout = min(timeout, Int32(clamping: milliseconds))
        }
        return timeout
    }
}

@available(*, unavailable, message: "Lives on the engine thread only")
extension CurlEngineLoop: Sendable {}
