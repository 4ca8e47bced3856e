import Foundation
import Synchronization

/// The socket end of a streamed body: frames each piece (as a chunk, or raw for an HTTP/1.0 client whose body
/// ends with the connection) and refuses writes once the producer is done or while another write runs.
final class BodyChannel: Sendable {
    enum Framing: Sendable {
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// Raw bytes; the body ends when the connection closes.
        case closeDelimited
    }

    private struct State {
        var isWriting = false
        var isClosed = false
        /// Set when a write failed: the connection can only be closed now.
        var failure: IOFailure?
        var bytesWritten = 0
    }

    private let socket: ConnectionSocket
    private let framing: Framing
    private let stallTimeout: Duration
    private let state = Mutex(State())

    init(socket: ConnectionSocket, framing: Framing, stallTimeout: Duration) {
        self.socket = socket
        self.framing = framing
        self.stallTimeout = stallTimeout
    }

    /// The failure of a write, if one failed.
    var failure: IOFailure? { state.withLock { $0.failure } }

    /// The body bytes written so far, without framing.
    var bytesWritten: Int { state.withLock { $0.bytesWritten } }

    func write(_ bytes: Data) async throws {
        try state.withLock { state throws(HTTPServerError) in
            if let failure = state.failure { throw Self.error(for: failure) }
            guard !state.isClosed, !state.isWriting else { throw .bodyWriterMisused }
            state.isWriting = true
        }
        defer { state.withLock { $0.isWriting = false } }
        guard !bytes.isEmpty else { return }
        var framed = Data()
        switch framing {
        case .chunked:
            framed.reserveCapacity(bytes.count + 12)
            framed.append(contentsOf: Array(String(bytes.count, radix: 16).utf8))
            framed.append(contentsOf: [0x0D, 0x0A])
            framed.append(bytes)
            framed.append(contentsOf: [0x0D, 0x0A])
        case .closeDelimited:
            framed = bytes
        }
        do {
            try await socket.write(framed, stallTimeout: stallTimeout)
            state.withLock { $0.bytesWritten += bytes.count }
        } catch {
            state.withLock { $0.failure = error }
            if error == .cancelled { throw CancellationError() }
            throw Self.error(for: error)
        }
    }

    /// Refuses every later write; called when the producer returned or threw.
    func close() {
        state.withLock { $0.isClosed = true }
    }

    private static func error(for failure: IOFailure) -> HTTPServerError {
        failure == .timedOut ? .writeTimedOut : .clientDisconnected
    }
}
