import Glibc

/// A POSIX socket call failed while setting up a test server.
public struct SocketError: Error, CustomStringConvertible {
    /// The call that failed, for example `bind`.
    public let operation: String
    /// The `errno` it left.
    public let code: Int32

    /// Captures `errno` for a failed call.
    ///
    /// - Parameter operation: The name of the call.
    public init(_ operation: String) {
        self.operation = operation
        code = errno
    }

    /// The call, the system's explanation, and what to check.
    public var description: String {
        "\(operation)() failed: \(String(cString: strerror(code))) (errno \(code)). "
            + "Check the limit of open files (ulimit -n) and that the loopback interface is up."
    }
}
