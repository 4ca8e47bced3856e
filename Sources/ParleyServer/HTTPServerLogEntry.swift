/// One thing the server reports to its log sink (``HTTPServer/Configuration/log``).
///
/// ```swift
/// configuration.log = { entry in
///     if entry.level >= .warning { FileHandle.standardError.write(Data("\(entry)\n".utf8)) }
/// }
/// ```
///
/// Entries never contain header values, bodies or query strings, so they cannot leak a token.
public struct HTTPServerLogEntry: Sendable, CustomStringConvertible {
    /// How much an entry matters.
    public enum Level: Int, Sendable, Comparable {
        /// Detail for debugging: a client closed mid-request, a malformed request.
        case debug
        /// Normal operation: a request answered, the server started or stopped.
        case info
        /// A client was refused or cut: limits, timeouts.
        case warning
        /// Something is wrong on the server's side: a handler failed or returned an invalid response.
        case error

        /// Orders levels by importance.
        ///
        /// - Parameters:
        ///   - lhs: A level.
        ///   - rhs: Another level.
        /// - Returns: `true` when `lhs` matters less.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What kind of event the entry reports, so that a program can react to it without reading ``message``.
    public enum Event: String, Sendable {
        /// The server listens (``HTTPServer/init(configuration:router:)``).
        case started
        /// The server stopped.
        case stopped
        /// A request was answered; ``status`` and ``duration`` are set.
        case requestCompleted
        /// A request was refused before its handler ran (malformed, a limit, authentication); ``status`` is set.
        case requestRefused
        /// A connection was refused because ``HTTPServer/Limits/maximumConnections`` were open.
        case connectionRefused
        /// A connection was cut: a timeout, or the server stopping.
        case connectionCut
        /// A handler threw an error that is not a ``ProblemDetails``, or returned an invalid response; the
        /// client got 500.
        case handlerFailed
        /// A streamed body ended early: the client went away, or its producer threw.
        case streamEnded
    }

    /// How much it matters.
    public var level: Level
    /// What happened, as a kind.
    public var event: Event
    /// What happened, in a sentence.
    public var message: String
    /// The request's id, when the entry is about a request.
    public var requestID: String?
    /// The client's address, when the entry is about a connection.
    public var peer: SocketAddress?
    /// The request's method, when known.
    public var method: HTTPRequestMethod?
    /// The request's path without its query, when known.
    public var path: String?
    /// The response's status, when one was sent.
    public var status: HTTPStatus?
    /// How long the request took, from its first byte to the end of the response.
    public var duration: Duration?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - level: How much it matters.
    ///   - event: What kind of event it is.
    ///   - message: What happened.
    ///   - requestID: The request's id.
    ///   - peer: The client's address.
    ///   - method: The request's method.
    ///   - path: The request's path.
    ///   - status: The response's status.
    ///   - duration: How long the request took.
    public init(
        level: Level, event: Event, message: String, requestID: String? = nil, peer: SocketAddress? = nil,
        method: HTTPRequestMethod? = nil, path: String? = nil, status: HTTPStatus? = nil, duration: Duration? = nil
    ) {
        self.level = level
        self.event = event
        self.message = message
        self.requestID = requestID
        self.peer = peer
        self.method = method
        self.path = path
        self.status = status
        self.duration = duration
    }

    /// One line: level, request id, peer, then the message.
    public var description: String {
        var parts = ["[\(level)]"]
        if let requestID { parts.append("[\(requestID)]") }
        if let peer { parts.append(peer.description) }
        parts.append(message)
        return parts.joined(separator: " ")
    }
}
