import Foundation
import Glibc

/// The non-blocking socket of one accepted connection, with reads and writes that wait through the reactor.
///
/// A value type that only holds the descriptor, so the connection's task and its helpers (the writer of a
/// streamed body, the watcher that notices a client going away) can share it. The connection's task alone
/// closes it, once, when it is done with the connection.
struct ConnectionSocket: Sendable {
    let descriptor: Int32
    let reactor: Reactor

    /// `POLLRDHUP`, which Glibc's module does not export: the peer closed its side (Linux).
    static let peerHangUp: Int16 = 0x2000

    /// The most bytes one read takes from the kernel.
    static let readSize = 64 * 1024

    /// Reads the bytes available, waiting for some if there are none.
    ///
    /// - Parameters:
    ///   - buffer: Where the bytes go.
    ///   - deadline: When to give up waiting.
    ///   - wakesOnDrain: Whether the server beginning to stop ends the wait (between requests).
    ///   - maximum: The most bytes to take.
    /// - Returns: The number of bytes appended, at least 1.
    /// - Throws: ``IOFailure``: ``IOFailure/closedByPeer`` at end of stream.
    @discardableResult
    func read(
        into buffer: inout InputBuffer, until deadline: ContinuousClock.Instant?, wakesOnDrain: Bool = false,
        maximum: Int = readSize
    ) async throws(IOFailure) -> Int {
        while true {
            let received = withUnsafeTemporaryAllocation(byteCount: max(1, min(maximum, Self.readSize)), alignment: 1) {
                chunk -> Int in
                let count = recv(descriptor, chunk.baseAddress, chunk.count, Int32(MSG_DONTWAIT))
                if count > 0 { buffer.append(UnsafeRawBufferPointer(rebasing: chunk[..<count])) }
                return count < 0 ? -Int(errno) : count
            }
            if received > 0 { return received }
            if received == 0 { throw .closedByPeer }
            let code = Int32(-received)
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw code == ECONNRESET ? .closedByPeer : .failed(code)
            }
            try await wait(for: Int16(POLLIN), until: deadline, wakesOnDrain: wakesOnDrain)
        }
    }

    /// Writes every byte, waiting while the client's receive window is full.
    ///
    /// - Parameters:
    ///   - bytes: The bytes.
    ///   - stallTimeout: How long one wait for the socket to accept more may last.
    /// - Throws: ``IOFailure``: ``IOFailure/timedOut`` when a wait lasted `stallTimeout`,
    ///   ``IOFailure/closedByPeer`` when the client is gone.
    func write(_ bytes: some ContiguousBytes & Sendable, stallTimeout: Duration) async throws(IOFailure) {
        var offset = 0
        let total = bytes.withUnsafeBytes { $0.count }
        while offset < total {
            let sent = bytes.withUnsafeBytes { raw -> Int in
                // MSG_NOSIGNAL: a closed peer must give EPIPE, not kill the process with SIGPIPE.
                let count = send(
                    descriptor, raw.baseAddress! + offset, total - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                return count < 0 ? -Int(errno) : count
            }
            if sent > 0 {
                offset += sent
                continue
            }
            let code = Int32(-sent)
            guard sent < 0, code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw code == EPIPE || code == ECONNRESET ? .closedByPeer : .failed(code)
            }
            try await wait(for: Int16(POLLOUT), until: .now + stallTimeout, wakesOnDrain: false)
        }
    }

    /// Waits until the client closes its side of the connection or resets it, or the task is cancelled.
    ///
    /// Bytes the client sends meanwhile (a pipelined request) are left for the next read; only a hang-up counts.
    ///
    /// - Returns: `true` when the client hung up, `false` when the task was cancelled first.
    func waitForHangUp() async -> Bool {
        let outcome = await reactor.wait(for: descriptor, events: Self.peerHangUp, until: nil)
        if case .ready = outcome { return true }
        return false
    }

    /// Ends the server's side of the connection (sends FIN) while still reading what the client sends.
    func shutDownWriting() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes the descriptor (on the reactor's thread, between two polls: see ``Reactor/close(_:then:)``).
    func close() {
        reactor.close(descriptor)
    }

    private func wait(
        for events: Int16, until deadline: ContinuousClock.Instant?, wakesOnDrain: Bool
    ) async throws(IOFailure) {
        switch await reactor.wait(for: descriptor, events: events, until: deadline, wakesOnDrain: wakesOnDrain) {
        case .ready: return
        case .timedOut: throw .timedOut
        case .cancelled, .stopped: throw .cancelled
        case .draining: throw .draining
        }
    }
}
