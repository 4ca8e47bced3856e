import ParleyBasics

/// A failure of an HTTP request before a complete response arrived: the connection, the time limits, the
/// protocol, or cancellation.
///
/// A struct wrapping a private code, so new cases can be added without breaking callers. Compare with the
/// static members, which ignore the URL and details:
///
/// ```swift
/// do {
///     _ = try await client.execute(request)
/// } catch let error as HTTPClientError where error == .connectionRefused {
///     print("Start the model server first: \(error)")
/// }
/// ```
///
/// ``description`` says what happened, names the URL without its query string, and says what to do. It never
/// contains header values. Responses with an error status are not `HTTPClientError`s: see ``HTTPStatusError``.
public struct HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case connectionRefused
        case couldNotResolveHost
        case connectTimeout
        case overallTimeout
        case idleTimeout
        case connectionReset
        case transferFailed
        case cancelled
        case invalidURL
        case invalidRequest
        case tlsFailure
        case invalidResponse
        case responseTooLarge
        case clientShutDown
        case bodyAlreadyConsumed
    }

    private let code: Code

    /// The request URL without query string, fragment or user information; `nil` on the static members.
    public let url: String?

    /// libcurl's explanation or other detail, when there is one; it never contains header values.
    public let detail: String?

    /// The time limit that ran out, for the timeout errors.
    public let limit: Duration?

    private init(code: Code, url: String? = nil, detail: String? = nil, limit: Duration? = nil) {
        self.code = code
        self.url = url
        self.detail = detail
        self.limit = limit
    }

    // MARK: - Kinds

    /// Nothing accepted the connection: the server is not running or listens elsewhere.
    public static let connectionRefused = HTTPClientError(code: .connectionRefused)
    /// The host name in the URL could not be resolved.
    public static let couldNotResolveHost = HTTPClientError(code: .couldNotResolveHost)
    /// The connection was not established within ``HTTPRequest/connectTimeout``.
    public static let connectTimeout = HTTPClientError(code: .connectTimeout)
    /// The request did not finish within ``HTTPRequest/timeout``.
    public static let overallTimeout = HTTPClientError(code: .overallTimeout)
    /// No byte arrived for ``HTTPRequest/idleTimeout``.
    public static let idleTimeout = HTTPClientError(code: .idleTimeout)
    /// The connection closed before the response was complete (reset, empty reply, body cut short).
    public static let connectionReset = HTTPClientError(code: .connectionReset)
    /// The transfer failed for another reason; ``detail`` has libcurl's message.
    public static let transferFailed = HTTPClientError(code: .transferFailed)
    /// The request was cancelled, by its task or by dropping its streamed body.
    public static let cancelled = HTTPClientError(code: .cancelled)
    /// The URL is not a valid absolute `http` or `https` URL.
    public static let invalidURL = HTTPClientError(code: .invalidURL)
    /// The request itself is malformed: a header name or value, or the method.
    public static let invalidRequest = HTTPClientError(code: .invalidRequest)
    /// The TLS handshake or certificate verification failed.
    public static let tlsFailure = HTTPClientError(code: .tlsFailure)
    /// The server's reply was not valid HTTP.
    public static let invalidResponse = HTTPClientError(code: .invalidResponse)
    /// The body was larger than the limit given to ``HTTPClient/execute(_:maximumBodySize:)``.
    public static let responseTooLarge = HTTPClientError(code: .responseTooLarge)
    /// The ``HTTPClient`` was released while the request was in flight.
    public static let clientShutDown = HTTPClientError(code: .clientShutDown)
    /// A streamed body was iterated a second time.
    public static let bodyAlreadyConsumed = HTTPClientError(code: .bodyAlreadyConsumed)

    /// Whether this is one of the three timeouts (connect, overall, idle).
    public var isTimeout: Bool {
        code == .connectTimeout || code == .overallTimeout || code == .idleTimeout
    }

    /// Compares the kind of error only, ignoring URL, detail and limit.
    ///
    /// - Parameters:
    ///   - lhs: An error.
    ///   - rhs: Another error, usually a static member such as ``connectionRefused``.
    /// - Returns: `true` when both are the same kind.
    public static func == (lhs: HTTPClientError, rhs: HTTPClientError) -> Bool {
        lhs.code == rhs.code
    }

    /// This kind of error with the request's URL and details attached.
    func with(url: String, detail: String? = nil, limit: Duration? = nil) -> HTTPClientError {
        HTTPClientError(code: code, url: url, detail: detail ?? self.detail, limit: limit ?? self.limit)
    }

    // MARK: - Description

    /// What happened, to which URL, and what to do.
    public var description: String {
        let target = url ?? "the server"
        let because = detail.map { ": \($0)" } ?? ""
        let within = limit.map { " of \(Self.format($0))" } ?? ""
        switch code {
        case .connectionRefused:
            return "Could not connect to \(target)\(because). "
                + "Check that the server is running and listening on that host and port."
        case .couldNotResolveHost:
            return "Could not resolve the host of \(target)\(because). "
                + "Check the host name in the URL and the network's DNS settings."
        case .connectTimeout:
            return "Could not connect to \(target) within the connect timeout\(within)\(because). "
                + "Check that the server is running and reachable, or raise `connectTimeout`."
        case .overallTimeout:
            return "The request to \(target) did not finish within its timeout\(within)\(because). "
                + "Raise `timeout`, or stream the response and rely on `idleTimeout` for long replies."
        case .idleTimeout:
            return "No data arrived from \(target) within the idle timeout\(within). "
                + "The server may be stuck or overloaded: check its log and retry, or raise `idleTimeout`."
        case .connectionReset:
            return "The connection to \(target) closed before the response was complete\(because). "
                + "The server may have crashed or restarted: check its log and retry."
        case .transferFailed:
            return "The request to \(target) failed\(because). "
                + "Retry; if it keeps failing, check the server's log and the network."
        case .cancelled:
            return "The request to \(target) was cancelled. "
                + "Nothing to do, unless the task or the reader of the body stopped unexpectedly."
        case .invalidURL:
            return "The URL \(target) is not a valid http or https URL\(because). "
                + "Fix the URL, for example http://127.0.0.1:8080/v1/chat/completions."
        case .invalidRequest:
            return "The request to \(target) is malformed\(because). Fix the method or the header."
        case .tlsFailure:
            return "The TLS (https) connection to \(target) failed\(because). "
                + "Check the server's certificate and that the system CA certificates (ca-certificates) "
                + "are installed; certificate verification stays on."
        case .invalidResponse:
            return "The reply from \(target) is not valid HTTP\(because). "
                + "Check that the URL's port belongs to an HTTP server, and whether it should be https."
        case .responseTooLarge:
            return "The response from \(target) is larger than the limit\(because). "
                + "Raise `maximumBodySize`, or use `stream` to read the body piece by piece."
        case .clientShutDown:
            return "The request to \(target) stopped because its HTTPClient was released. "
                + "Keep a reference to the client while its requests are in flight."
        case .bodyAlreadyConsumed:
            return "The body of the response from \(target) was already read; a body can be read only once. "
                + "Iterate either `bytes` or `lines`, once."
        }
    }

    /// Formats a duration as seconds with up to three decimals, for example `0.25 s`.
    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds(rounded: .towardZero)
        let whole = milliseconds / 1_000
        let fraction = milliseconds % 1_000
        guard fraction != 0 else { return "\(whole) s" }
        var decimals = String(fraction)
        decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
        while decimals.hasSuffix("0") { decimals.removeLast() }
        return "\(whole).\(decimals) s"
    }
}
