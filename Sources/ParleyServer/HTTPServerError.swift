import Glibc

/// A failure of the server itself: its configuration, binding its address, or writing a streamed body.
///
/// A struct wrapping a private code, so new cases can be added without breaking callers. Compare with the
/// static members, which ignore the details:
///
/// ```swift
/// do {
///     server = try HTTPServer(configuration: configuration, router: router)
/// } catch let error as HTTPServerError where error == .addressInUse {
///     print("\(error)")   // says which address and what to do
/// }
/// ```
///
/// Problems with requests are not `HTTPServerError`s: the server answers them with a ``ProblemDetails``.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case tokenRequired
        case invalidToken
        case invalidConfiguration
        case cannotResolveHost
        case addressInUse
        case addressNotAvailable
        case permissionDenied
        case systemCall
        case clientDisconnected
        case writeTimedOut
        case bodyWriterMisused
    }

    private let code: Code

    /// The host and port concerned, for the errors of starting a server; `nil` on the static members.
    public let address: String?

    /// More detail: the setting at fault, the system's explanation; `nil` on the static members.
    public let detail: String?

    /// The `errno` of the failed system call, when there was one.
    public let errno: Int32?

    private init(code: Code, address: String? = nil, detail: String? = nil, errno: Int32? = nil) {
        self.code = code
        self.address = address
        self.detail = detail
        self.errno = errno
    }

    // MARK: - Kinds

    /// The server would listen on an address other than loopback without a bearer token.
    public static let tokenRequired = HTTPServerError(code: .tokenRequired)
    /// The bearer token is too short or has characters a token cannot have.
    public static let invalidToken = HTTPServerError(code: .invalidToken)
    /// A limit or timeout is not positive, or the port is out of range; ``detail`` names it.
    public static let invalidConfiguration = HTTPServerError(code: .invalidConfiguration)
    /// The host is neither an IP address nor a name this machine resolves.
    public static let cannotResolveHost = HTTPServerError(code: .cannotResolveHost)
    /// Another program already listens on the port.
    public static let addressInUse = HTTPServerError(code: .addressInUse)
    /// The host is not an address of this machine.
    public static let addressNotAvailable = HTTPServerError(code: .addressNotAvailable)
    /// The system refused the port (ports below 1024 need privileges).
    public static let permissionDenied = HTTPServerError(code: .permissionDenied)
    /// Another system call failed while starting the server (out of descriptors, say); ``detail`` names it.
    public static let systemCall = HTTPServerError(code: .systemCall)
    /// A write of a streamed body failed because the client went away.
    public static let clientDisconnected = HTTPServerError(code: .clientDisconnected)
    /// A write of a streamed body waited longer than ``HTTPServer/Timeouts/write`` for the client to read.
    public static let writeTimedOut = HTTPServerError(code: .writeTimedOut)
    /// A ``ResponseBodyWriter`` was used after its producer returned, or by two tasks at once.
    public static let bodyWriterMisused = HTTPServerError(code: .bodyWriterMisused)

    /// Compares the kind of error only, ignoring address and details.
    ///
    /// - Parameters:
    ///   - lhs: An error.
    ///   - rhs: Another error, usually a static member such as ``addressInUse``.
    /// - Returns: `true` when both are the same kind.
    public static func == (lhs: HTTPServerError, rhs: HTTPServerError) -> Bool {
        lhs.code == rhs.code
    }

    /// This kind of error with its address and details.
    func with(address: String? = nil, detail: String? = nil, errno: Int32? = nil) -> HTTPServerError {
        HTTPServerError(
            code: code, address: address ?? self.address, detail: detail ?? self.detail, errno: errno ?? self.errno)
    }

    /// A failed system call while starting: `bind` giving `EADDRINUSE` becomes ``addressInUse``, and so on.
    static func systemCall(_ name: String, errno code: Int32, address: String? = nil) -> HTTPServerError {
        let kind: HTTPServerError =
            switch code {
            case EADDRINUSE: .addressInUse
            case EADDRNOTAVAIL: .addressNotAvailable
            case EACCES, EPERM: .permissionDenied
            default: .systemCall
            }
        return kind.with(address: address, detail: "\(name): \(String(cString: strerror(code)))", errno: code)
    }

    // MARK: - Description

    /// What happened, where, and what to do.
    public var description: String {
        let at = address.map { " \($0)" } ?? ""
        let because = detail.map { " (\($0))" } ?? ""
        switch code {
        case .tokenRequired:
            return "The server would listen on\(at), which other machines can reach, without a bearer token. "
                + "Give it a token (--token, at least 16 characters, for example from `openssl rand -hex 16`), "
                + "or listen on 127.0.0.1."
        case .invalidToken:
            return "The bearer token is not usable\(because). Use at least 16 characters among letters, digits "
                + "and -._~+/=, for example from `openssl rand -hex 16`."
        case .invalidConfiguration:
            return "The server's configuration is invalid\(because). Fix that setting."
        case .cannotResolveHost:
            return "Could not resolve the host\(at)\(because). Give an IP address such as 127.0.0.1 or ::1, "
                + "or a name this machine resolves."
        case .addressInUse:
            return "Another program already listens on\(at)\(because). Stop it, or choose another port "
                + "(port 0 picks a free one)."
        case .addressNotAvailable:
            return "\(address ?? "The host") is not an address of this machine\(because). "
                + "Listen on one of its addresses, 127.0.0.1, or 0.0.0.0 for all of them (with a token)."
        case .permissionDenied:
            return "The system refused to let the server listen on\(at)\(because). "
                + "Ports below 1024 need privileges: choose a port of 1024 or above."
        case .systemCall:
            return "Could not start the server on\(at)\(because). "
                + "Check the limit of open files (ulimit -n) and that the network interface is up."
        case .clientDisconnected:
            return "The client went away before the streamed response was complete. "
                + "Nothing to do: stop producing the body."
        case .writeTimedOut:
            return "The client stopped reading the streamed response for longer than the write timeout, so the "
                + "connection was cut. Stop producing the body; raise `timeouts.write` if clients are just slow."
        case .bodyWriterMisused:
            return "A response body writer was used after its producer returned, or from two tasks at once. "
                + "Write only from the producer closure, one write at a time."
        }
    }
}
