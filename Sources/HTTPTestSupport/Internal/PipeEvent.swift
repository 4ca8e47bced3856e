import Glibc

/// A one-shot event that any number of threads can wait for with `poll`, alongside their sockets.
///
/// It is a pipe whose read end becomes readable for good once ``set()`` writes a byte (nobody reads it).
/// Used to stop the server's threads and to open gates.
final class PipeEvent: Sendable {
    let readDescriptor: Int32
    let writeDescriptor: Int32

    init() throws(SocketError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw SocketError("pipe") }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
    }

    /// Fires the event; waiting and future `poll`s see it. Safe to call more than once.
    func set() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Whether the event has fired.
    var isSet: Bool {
        var descriptor = pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Closes the pipe; only when no thread can wait on it any more.
    func close() {
        _ = closeDescriptor(readDescriptor)
        _ = closeDescriptor(writeDescriptor)
    }
}

/// `close(2)`, under a name that does not clash with methods called `close`.
@discardableResult
func closeDescriptor(_ descriptor: Int32) -> Int32 {
    Glibc.close(descriptor)
}
