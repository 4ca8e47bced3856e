/// Routes requests to handlers by method and path pattern.
///
/// A pattern is a path whose segments are literals or `{name}` parameters:
///
/// ```swift
/// var router = HTTPRouter()
/// router.get("/v1/health") { _ in .json(#"{"status":"ok"}"#) }
/// router.get("/v1/games/{id}/transcript/{npc}") { request in
///     let (id, npc) = (request.pathParameters["id"]!, request.pathParameters["npc"]!)
///     …
/// }
/// router.post("/v1/games") { request in … }
/// let server = try HTTPServer(router: router)
/// ```
///
/// Matching is on whole decoded segments: a parameter matches one non-empty segment; a trailing slash or an
/// empty segment matches no pattern but `/`. When several patterns match, the one whose first differing segment
/// is a literal wins (`/v1/games/new` before `/v1/games/{id}`). The server then answers:
/// - the handler's response, when a route has the method;
/// - for `HEAD` without a `HEAD` route, the `GET` route's response without its body;
/// - for `OPTIONS` without an `OPTIONS` route, 204 with `Allow` listing the path's methods;
/// - 405 Method Not Allowed with `Allow` when the path matches but no route has the method;
/// - 404 Not Found when no pattern matches.
public struct HTTPRouter: Sendable {
    /// Answers one request; called on the connection's task, possibly concurrently with other requests.
    ///
    /// Throw a ``ProblemDetails`` to answer with it; any other error becomes 500 (with the request id in the
    /// detail, the error itself in the log). The task is cancelled if the server stops and the grace period
    /// runs out.
    public typealias Handler = @Sendable (HTTPServerRequest) async throws -> HTTPServerResponse

    struct Route: Sendable {
        let method: HTTPRequestMethod
        let pattern: RoutePattern
        let handler: Handler
    }

    /// What the router decided for a request.
    enum Resolution {
        case found(Route, parameters: [String: String])
        /// The path matches these methods' routes, not the request's.
        case methodNotAllowed(allowed: [HTTPRequestMethod])
        /// An `OPTIONS` request without a route of its own: the path's methods.
        case options(allowed: [HTTPRequestMethod])
        case notFound
    }

    private(set) var routes: [Route] = []

    /// Creates a router without routes.
    public init() {}

    /// The routes, in the order they were added: each method with its pattern as written (`/v1/games/{id}`). For
    /// documentation and tests that check a description of the API (an OpenAPI file) lists exactly these.
    public var patterns: [(method: HTTPRequestMethod, pattern: String)] {
        routes.map { ($0.method, $0.pattern.text) }
    }

    /// Adds a route.
    ///
    /// - Parameters:
    ///   - method: The method it answers.
    ///   - pattern: The path pattern, for example `/v1/games/{id}`.
    ///   - handler: Answers the requests.
    /// - Precondition: The pattern is valid (starts with `/`, no empty or dot segments, parameters are whole
    ///   segments with distinct plain names) and no route with the same method has the same shape. A bad pattern
    ///   is a bug in the program, so it stops the program at startup with a message saying what is wrong.
    public mutating func add(_ method: HTTPRequestMethod, _ pattern: String, handler: @escaping Handler) {
        let parsed: RoutePattern
        do {
            parsed = try RoutePattern(pattern)
        } catch {
            preconditionFailure(error.description)
        }
        precondition(
            !routes.contains { $0.method == method && $0.pattern.shape == parsed.shape },
            "Two routes for \(method) \(pattern): remove one of them, or give them different paths.")
        routes.append(Route(method: method, pattern: parsed, handler: handler))
    }

    /// Adds a `GET` route, which also answers `HEAD`.
    ///
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - handler: Answers the requests.
    public mutating func get(_ pattern: String, handler: @escaping Handler) {
        add(.get, pattern, handler: handler)
    }

    /// Adds a `POST` route.
    ///
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - handler: Answers the requests.
    public mutating func post(_ pattern: String, handler: @escaping Handler) {
        add(.post, pattern, handler: handler)
    }

    /// Adds a `PUT` route.
    ///
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - handler: Answers the requests.
    public mutating func put(_ pattern: String, handler: @escaping Handler) {
        add(.put, pattern, handler: handler)
    }

    /// Adds a `PATCH` route.
    ///
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - handler: Answers the requests.
    public mutating func patch(_ pattern: String, handler: @escaping Handler) {
        add(.patch, pattern, handler: handler)
    }

    /// Adds a `DELETE` route.
    ///
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - handler: Answers the requests.
    public mutating func delete(_ pattern: String, handler: @escaping Handler) {
        add(.delete, pattern, handler: handler)
    }

    /// Finds the route for a method and decoded path.
    func resolve(_ method: HTTPRequestMethod, _ path: [String]) -> Resolution {
        var matches: [(route: Route, parameters: [String: String])] = []
        for route in routes {
            if let parameters = route.pattern.match(path) { matches.append((route, parameters)) }
        }
        guard !matches.isEmpty else { return .notFound }

        func best(_ method: HTTPRequestMethod) -> (route: Route, parameters: [String: String])? {
            matches.filter { $0.route.method == method }.min(by: {
                $0.route.pattern.isMoreSpecific(than: $1.route.pattern)
            })
        }
        if let found = best(method) {
            return .found(found.route, parameters: found.parameters)
        }
        if method == .head, let found = best(.get) {
            return .found(found.route, parameters: found.parameters)
        }
        var allowed: [HTTPRequestMethod] = []
        for match in matches where !allowed.contains(match.route.method) {
            allowed.append(match.route.method)
        }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        if !allowed.contains(.options) { allowed.append(.options) }
        return method == .options ? .options(allowed: allowed) : .methodNotAllowed(allowed: allowed)
    }
}
