import Foundation
import Synchronization

/// Where one transfer's producer meets its consumers.
///
/// The producer is libcurl, calling back on the engine thread with the head and then body chunks. The
/// consumers are the task awaiting the head in ``HTTPClient/stream(_:)`` and then the reader of the body.
/// Chunks are buffered up to `bufferLimit` bytes; beyond that ``offer(_:)`` answers `.pause`, the engine pauses
/// the transfer, and the reader's ``nextChunk()`` asks for an unpause once it has drained half the buffer.
///
/// Continuations are always resumed after the lock is released.
final class TransferChannel: Sendable {
    /// What the producer should do with a chunk it offered.
    enum Offer {
        /// The chunk was taken.
        case accepted
        /// The buffer is full: pause the transfer and offer the same bytes again after an unpause.
        case pause
        /// The transfer ended (cancelled): abort it.
        case abort
    }

    /// Counters that tests read to check backpressure.
    struct Statistics: Sendable {
        var pauses = 0
        var largestBuffer = 0
    }

    private enum End {
        case finished
        case failed(HTTPClientError)
    }

    private struct State {
        var headWaiter: CheckedContinuation<ResponseHead, any Error>?
        var bodyWaiter: CheckedContinuation<Data?, any Error>?
        var chunks: [Data] = []
        var bufferedBytes = 0
        var isPaused = false
        var end: End?
        /// Set once the reader has been handed the end, so a failure is thrown only once and a late
        /// cancellation does not turn a finished body into an error.
        var readerSawEnd = false
        var statistics = Statistics()
    }

    /// A consumer to resume once the lock is released.
    private enum Wakeup {
        case head(CheckedContinuation<ResponseHead, any Error>, Result<ResponseHead, HTTPClientError>)
        case body(CheckedContinuation<Data?, any Error>, Result<Data?, HTTPClientError>)

        func resume() {
            switch self {
            case .head(let continuation, let result): continuation.resume(with: result)
            case .body(let continuation, let result): continuation.resume(with: result)
            }
        }
    }

    let id: UInt64
    /// The redacted URL, for errors.
    let url: String
    private let bufferLimit: Int
    private let engine: CurlEngine
    private let state = Mutex(State())

    init(id: UInt64, url: String, bufferLimit: Int, engine: CurlEngine) {
        self.id = id
        self.url = url
        self.bufferLimit = max(1, bufferLimit)
        self.engine = engine
    }

    var statistics: Statistics { state.withLock { $0.statistics } }

    /// Whether the transfer has ended; libcurl callbacks abort when it has.
    var hasEnded: Bool { state.withLock { $0.end != nil } }

    // MARK: - Consumer side

    /// Runs `start` and waits for the head, or for the failure that ends the transfer first.
    func awaitHead(start: () -> Void) async throws -> ResponseHead {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let failure: HTTPClientError? = state.withLock { state in
                    if case .failed(let error)? = state.end { return error }
                    state.headWaiter = continuation
                    return nil
                }
                if let failure {
                    continuation.resume(throwing: failure)
                } else {
                    start()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The next body chunk; `nil` at the end of a complete body.
    ///
    /// Buffered chunks come before a failure, so a reader gets every byte that arrived before the connection
    /// broke, and then the error, once.
    func nextChunk() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (immediate, unpause) = state.withLock { state -> (Result<Data?, HTTPClientError>?, Bool) in
                    if !state.chunks.isEmpty {
                        let chunk = state.chunks.removeFirst()
                        state.bufferedBytes -= chunk.count
                        let unpause = state.isPaused && state.bufferedBytes <= bufferLimit / 2
                        if unpause { state.isPaused = false }
                        return (.success(chunk), unpause)
                    }
                    switch state.end {
                    case nil:
                        state.bodyWaiter = continuation
                        return (nil, false)
                    case .finished?:
                        state.readerSawEnd = true
                        return (.success(nil), false)
                    case .failed(let error)?:
                        if state.readerSawEnd { return (.success(nil), false) }
                        state.readerSawEnd = true
                        return (.failure(error), false)
                    }
                }
                if unpause { engine.unpause(id) }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Ends the transfer as cancelled, drops buffered chunks, and has the engine abort it if it still runs.
    func cancel() {
        let (wakeups, wasRunning) = state.withLock { state -> ([Wakeup], Bool) in
            guard !state.readerSawEnd else { return ([], false) }
            let wasRunning = state.end == nil
            state.chunks.removeAll()
            state.bufferedBytes = 0
            state.end = .failed(HTTPClientError.cancelled.with(url: url))
            return (takeWaiters(&state), wasRunning)
        }
        wakeups.forEach { $0.resume() }
        if wasRunning { engine.cancel(id) }
    }

    // MARK: - Producer side (engine thread)

    /// Hands the head to the waiting task; `false` when the transfer already ended.
    func deliverHead(_ head: ResponseHead) -> Bool {
        let (delivered, waiter) = state.withLock { state -> (Bool, CheckedContinuation<ResponseHead, any Error>?) in
            guard state.end == nil else { return (false, nil) }
            defer { state.headWaiter = nil }
            return (true, state.headWaiter)
        }
        waiter?.resume(returning: head)
        return delivered
    }

    /// Offers a body chunk to the reader.
    func offer(_ chunk: Data) -> Offer {
        let (offer, wakeup) = state.withLock { state -> (Offer, Wakeup?) in
            guard state.end == nil else { return (.abort, nil) }
            if let waiter = state.bodyWaiter {
                state.bodyWaiter = nil
                return (.accepted, .body(waiter, .success(chunk)))
            }
            guard state.bufferedBytes < bufferLimit else {
                state.isPaused = true
                state.statistics.pauses += 1
                return (.pause, nil)
            }
            state.chunks.append(chunk)
            state.bufferedBytes += chunk.count
            state.statistics.largestBuffer = max(state.statistics.largestBuffer, state.bufferedBytes)
            return (.accepted, nil)
        }
        wakeup?.resume()
        return offer
    }

    /// Ends the transfer: successfully with `nil`, or with an error. Does nothing when it already ended.
    func finish(_ error: HTTPClientError?) {
        let wakeups = state.withLock { state -> [Wakeup] in
            guard state.end == nil else { return [] }
            state.end = error.map { .failed($0) } ?? .finished
            return takeWaiters(&state)
        }
        wakeups.forEach { $0.resume() }
    }

    /// Removes the waiting consumers and says how to resume them, given the end in `state`.
    private func takeWaiters(_ state: inout State) -> [Wakeup] {
        var failure: HTTPClientError?
        if case .failed(let error)? = state.end { failure = error }
        var wakeups: [Wakeup] = []
        if let waiter = state.headWaiter {
            state.headWaiter = nil
            // A transfer that ends without a head never got a complete HTTP response.
            let error = failure ?? HTTPClientError.invalidResponse.with(url: url, detail: "no response headers")
            wakeups.append(.head(waiter, .failure(error)))
        }
        // A waiting reader implies an empty buffer, so the end is next.
        if let waiter = state.bodyWaiter {
            state.bodyWaiter = nil
            state.readerSawEnd = true
            wakeups.append(.body(waiter, failure.map { .failure($0) } ?? .success(nil)))
        }
        return wakeups
    }
}
