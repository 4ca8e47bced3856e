extension HTTPServer {
    /// Where a server listens, who may call it, and its limits and timeouts.
    ///
    /// ```swift
    /// var configuration = HTTPServer.Configuration(port: 8080)
    /// configuration.bearerToken = token
    /// configuration.log = { entry in print(entry) }
    /// ```
    public struct Configuration: Sendable {
        /// The address to listen on: an IP address (`127.0.0.1`, `::1`, `0.0.0.0`) or a host name this machine
        /// resolves. Default `127.0.0.1`: only programs on this machine can connect.
        public var host: String
        /// The port; `0` (the default) picks a free one, which ``HTTPServer/port`` reports.
        public var port: Int
        /// The token every request must present as `Authorization: Bearer <token>`, or `nil` for none.
        ///
        /// At least 16 characters among letters, digits and `-._~+/=`. Required when ``host`` is not a loopback
        /// address: ``HTTPServer/init(configuration:router:)`` throws ``HTTPServerError/tokenRequired`` otherwise.
        public var bearerToken: String?
        /// The limits on requests and connections.
        public var limits: Limits
        /// The timeouts.
        public var timeouts: Timeouts
        /// The origins whose pages may call the server from a browser (cross-origin resource sharing), as browsers
        /// send them in `Origin`: `http://localhost:8000`, `https://game.example`. Requests from them get
        /// `Access-Control-Allow-Origin`, and their preflights (`OPTIONS` with `Access-Control-Request-Method`) are
        /// answered, without the bearer token, which browsers never send on a preflight. Empty (the default): no
        /// page from another origin can read an answer, and a preflight gets 403.
        public var allowedOrigins: [String]
        /// Receives what the server has to say (each request answered, connections refused or cut, handler
        /// failures), on whatever thread or task the event happens; `nil` (the default) logs nothing.
        public var log: (@Sendable (HTTPServerLogEntry) -> Void)?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - host: The address to listen on.
        ///   - port: The port; 0 for a free one.
        ///   - bearerToken: The token requests must present, or `nil`.
        ///   - limits: The limits.
        ///   - timeouts: The timeouts.
        ///   - allowedOrigins: The origins whose pages may call the server; none by default.
        ///   - log: The log sink, or `nil`.
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            bearerToken: String? = nil,
            limits: Limits = Limits(),
            timeouts: Timeouts = Timeouts(),
            allowedOrigins: [String] = [],
            log: (@Sendable (HTTPServerLogEntry) -> Void)? = nil
        ) {
            self.host = host
            self.port = port
            self.bearerToken = bearerToken
            self.limits = limits
            self.timeouts = timeouts
            self.allowedOrigins = allowedOrigins
            self.log = log
        }
    }
}

extension HTTPServer.Configuration {
    /// An origin as browsers send it in `Origin`, for ``allowedOrigins``: `scheme://host[:port]` in lower case, a
    /// trailing `/` dropped; `nil` for what is not one (a path, a query, user information, `*`, `null`).
    ///
    /// ```swift
    /// HTTPServer.Configuration.origin("HTTP://Localhost:8000/")   // "http://localhost:8000"
    /// HTTPServer.Configuration.origin("localhost:8000")           // nil: no scheme
    /// ```
    ///
    /// - Parameter text: The candidate.
    /// - Returns: The origin, or `nil`.
    public static func origin(_ text: String) -> String? { CORSPolicy.normalized(text) }
}

extension HTTPServer.Configuration: CustomReflectable {
    /// A mirror without the token's value, so `dump(_:)` prints no secret.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "host": host, "port": port, "bearerToken": bearerToken == nil ? "nil" : "<redacted>",
                "limits": limits, "timeouts": timeouts, "allowedOrigins": allowedOrigins,
                "log": log == nil ? "nil" : "<sink>",
            ] as KeyValuePairs<String, Any>,
            displayStyle: .struct)
    }
}
