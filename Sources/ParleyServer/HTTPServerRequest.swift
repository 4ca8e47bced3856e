import Foundation

/// A request the server received in full, as a handler sees it.
///
/// The server has already checked it: the request line, the headers and the framing of the body are valid, the
/// body is complete and within ``HTTPServer/Limits/maximumBodySize``, the bearer token (when the server has one)
/// is right, and a route matched. The path is percent-decoded segment by segment; segments that would decode
/// to `/`, `.` or `..`, or to control characters, were refused with 400, so a path parameter never holds a
/// slash or a dot segment.
///
/// ```swift
/// router.get("/v1/games/{id}/transcript/{npc}") { request in
///     let id = request.pathParameters["id"]!          // present whenever the route matched
///     let annotated = request.query["annotated"] == "1"
///     …
/// }
/// ```
public struct HTTPServerRequest: Sendable {
    /// The request's id for logs: the client's `X-Request-Id` when it sent a short, plain one (letters, digits,
    /// `-`, `_`, `.`, `:`; at most 128), otherwise one the server made. Every response carries it back as
    /// `X-Request-Id`.
    public var id: String
    /// The method.
    public var method: HTTPRequestMethod
    /// The request target exactly as sent, for example `/v1/games/g1?annotated=1`.
    public var target: String
    /// The decoded path, for example `/v1/games/g1`.
    public var path: String
    /// The decoded path segments: `["v1", "games", "g1"]`.
    public var pathSegments: [String]
    /// The values of the route pattern's `{name}` segments, by name.
    public var pathParameters: [String: String]
    /// The route pattern that matched, for example `/v1/games/{id}`; for logs and metrics.
    public var route: String
    /// The decoded query parameters.
    public var query: QueryParameters
    /// The HTTP version.
    public var version: HTTPVersion
    /// The header fields, in the order received.
    public var headers: HTTPFields
    /// The body, decoded from chunked transfer encoding if it was sent so; empty when there was none.
    public var body: Data
    /// The address of the client's end of the connection.
    public var peer: SocketAddress
    /// Whether the request came from one of this server's own pages, as far as a browser says: it did not say
    /// `Sec-Fetch-Site: cross-site`, and its `Origin`, when it sent one, is `http://` and a name the server answers to
    /// (on loopback: `localhost`, `127.0.0.1`, `[::1]` or the configured host, with the server's port; or the `Host`
    /// the request was sent to, which the server has checked is one of those names). A request with neither field (a
    /// program that is not a browser) did. Forms that change something check it besides the server's own check.
    public var isSameOrigin: Bool

    /// Creates a request, for calling handlers in tests without a server.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The decoded path; ``target`` and ``pathSegments`` are made from it.
    ///   - pathParameters: The route's parameters.
    ///   - route: The route pattern; the path by default.
    ///   - query: The query parameters.
    ///   - headers: The header fields.
    ///   - body: The body.
    ///   - id: The request id.
    ///   - version: The HTTP version.
    ///   - peer: The client's address.
    ///   - isSameOrigin: Whether it came from the server's own page; by default worked out from `Origin`,
    ///     `Sec-Fetch-Site` and `Host` as a server on loopback with an unknown port would.
    public init(
        method: HTTPRequestMethod,
        path: String,
        pathParameters: [String: String] = [:],
        route: String? = nil,
        query: QueryParameters = QueryParameters(),
        headers: HTTPFields = [:],
        body: Data = Data(),
        id: String = "test",
        version: HTTPVersion = .http11,
        peer: SocketAddress = SocketAddress(host: "127.0.0.1", port: 0),
        isSameOrigin: Bool? = nil
    ) {
        self.id = id
        self.method = method
        self.target = path
        self.path = path
        self.pathSegments = path.split(separator: "/").map(String.init)
        self.pathParameters = pathParameters
        self.route = route ?? path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.peer = peer
        self.isSameOrigin =
            isSameOrigin
            ?? HostPolicy(configuredHost: "127.0.0.1", isLoopback: true, port: nil, address: "127.0.0.1")
            .isSameOrigin(headers)
    }

    /// Creates a request from what the server parsed.
    init(
        id: String, method: HTTPRequestMethod, target: String, path: String, pathSegments: [String],
        pathParameters: [String: String], route: String, query: QueryParameters, version: HTTPVersion,
        headers: HTTPFields, body: Data, peer: SocketAddress, isSameOrigin: Bool
    ) {
        self.id = id
        self.method = method
        self.target = target
        self.path = path
        self.pathSegments = pathSegments
        self.pathParameters = pathParameters
        self.route = route
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.peer = peer
        self.isSameOrigin = isSameOrigin
    }

    /// The body decoded as UTF-8, with invalid bytes replaced by U+FFFD.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
