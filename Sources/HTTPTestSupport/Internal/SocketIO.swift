import Foundation
import Glibc
import ParleyBasics

/// Blocking socket I/O that gives up as soon as a stop event fires, so `stop()` never waits on a peer.
enum SocketIO {
    enum Wait {
        case ready
        case stopped
        case timedOut
    }

    /// Waits until `descriptor` has `events`, an event in `stops` fires, or `timeout` passes (`nil`: forever).
    static func wait(
        _ descriptor: Int32, for events: Int32, stops: [PipeEvent], timeout: Duration? = nil
    ) -> Wait {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var descriptors = [pollfd(fd: descriptor, events: Int16(events), revents: 0)]
        descriptors += stops.map { pollfd(fd: $0.readDescriptor, events: Int16(POLLIN), revents: 0) }
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let left = deadline - .now
                guard left > .zero else { return .timedOut }
                milliseconds = Int32(clamping: left.milliseconds(rounded: .towardZero).saturatingAdding(1))
            }
            for index in descriptors.indices { descriptors[index].revents = 0 }
            let count = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if count < 0 {
                if errno == EINTR { continue }
                return .stopped
            }
            if descriptors.dropFirst().contains(where: { $0.revents != 0 }) { return .stopped }
            if descriptors[0].revents != 0 { return .ready }
        }
    }

    /// Sleeps, unless stopped first; `false` when stopped.
    static func sleep(_ duration: Duration, stops: [PipeEvent]) -> Bool {
        guard duration > .zero else { return !stops.contains { $0.isSet } }
        var descriptors = stops.map { pollfd(fd: $0.readDescriptor, events: Int16(POLLIN), revents: 0) }
        let deadline = ContinuousClock.now + duration
        while true {
            let left = deadline - .now
            guard left > .zero else { return true }
            let milliseconds = Int32(clamping: left.milliseconds(rounded: .towardZero).saturatingAdding(1))
            let count = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if count > 0 { return false }
            if count < 0, errno != EINTR { return false }
        }
    }

    /// Reads what is available into `buffer`; `false` on end of stream, error or stop.
    static func read(_ descriptor: Int32, into buffer: inout [UInt8], stops: [PipeEvent]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            guard wait(descriptor, for: Int32(POLLIN), stops: stops) == .ready else { return false }
            let count = recv(descriptor, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if count > 0 {
                buffer += chunk[..<count]
                return true
            }
            if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
            return false
        }
    }

    /// Writes all bytes; `false` when the peer is gone or the server stops.
    static func write(_ descriptor: Int32, _ bytes: some Collection<UInt8>, stops: [PipeEvent]) -> Bool {
        var remaining = Array(bytes)[...]
        while !remaining.isEmpty {
            guard wait(descriptor, for: Int32(POLLOUT), stops: stops) == .ready else { return false }
            // MSG_NOSIGNAL: a closed peer must give EPIPE, not kill the test process with SIGPIPE.
            let count = remaining.withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                remaining = remaining.dropFirst(count)
            } else if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Closes with a TCP reset instead of an orderly shutdown (SO_LINGER with a zero timeout).
    static func reset(_ descriptor: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        closeDescriptor(descriptor)
    }

    /// Sets `SO_REUSEADDR` on a socket.
    static func reuseAddress(_ descriptor: Int32) {
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// A TCP socket bound to 127.0.0.1 on a free port and listening, with the port.
    static func listenOnLoopback(backlog: Int32) throws(SocketError) -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("socket") }
        reuseAddress(descriptor)
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = SocketError("bind")
            closeDescriptor(descriptor)
            throw error
        }
        guard listen(descriptor, backlog) == 0 else {
            let error = SocketError("listen")
            closeDescriptor(descriptor)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let error = SocketError("getsockname")
            closeDescriptor(descriptor)
            throw error
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// `127.0.0.1:port` as a socket address.
    static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
