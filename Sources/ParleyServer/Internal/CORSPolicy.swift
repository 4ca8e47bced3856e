/// Cross-origin resource sharing for the origins a server allows (``HTTPServer/Configuration/allowedOrigins``): the
/// `Access-Control-*` header fields that let a page from one of them call the server, and the answer to its
/// preflight. A page from any other origin gets none, so its browser keeps it from reading the answers.
struct CORSPolicy: Sendable {
    /// The allowed origins, normalized (see ``normalized(_:)``).
    let origins: Set<String>

    /// The request header fields a page may send.
    static let allowedHeaders = "Accept, Authorization, Content-Type, Last-Event-ID, X-Request-Id"
    /// The response header fields a page may read besides the simple ones.
    static let exposedHeaders = "Location, Retry-After, X-Request-Id"
    /// How long a browser may keep a preflight's answer, in seconds.
    static let maximumAge = "600"

    /// A policy for some origins.
    ///
    /// - Throws: ``HTTPServerError/invalidConfiguration`` for a value that is not an origin.
    init(origins: [String]) throws(HTTPServerError) {
        var normalized: Set<String> = []
        for origin in origins {
            guard let origin = Self.normalized(origin) else {
                throw HTTPServerError.invalidConfiguration.with(
                    detail: "\"\(origin)\" is not an origin: give a scheme, a host and, when it is not the scheme's "
                        + "default, a port, as a browser sends them: http://localhost:8000 or https://game.example")
            }
            normalized.insert(origin)
        }
        self.origins = normalized
    }

    /// An origin as browsers send it: `scheme://host[:port]`, the scheme and host in lower case, a trailing `/`
    /// dropped; `nil` for anything else (a path, a query, user information, `*`, `null`).
    static func normalized(_ text: String) -> String? {
        var origin = text.lowercased()
        if origin.hasSuffix("/") { origin.removeLast() }
        guard let separator = origin.range(of: "://") else { return nil }
        let scheme = origin[..<separator.lowerBound]
        let authority = origin[separator.upperBound...]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
            scheme.first?.isLetter == true, !authority.isEmpty,
            authority.allSatisfy({ $0.isLetter || $0.isNumber || "-.:[]".contains($0) }), authority.first != ":"
        else { return nil }
        return origin
    }

    /// Whether requests from an origin get CORS header fields.
    func allows(_ origin: String?) -> Bool {
        guard let origin, !origins.isEmpty else { return false }
        return origins.contains(origin.lowercased())
    }

    /// Whether a request is a preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`.
    static func isPreflight(_ method: HTTPRequestMethod, _ headers: HTTPFields) -> Bool {
        method == .options && headers.contains(name: "Origin")
            && headers.contains(name: "Access-Control-Request-Method")
    }

    /// Adds the header fields of an answer to a request from an allowed origin (and `Vary: Origin` to every answer,
    /// for caches, when there are allowed origins at all).
    func decorate(_ headers: inout HTTPFields, origin: String?) {
        guard !origins.isEmpty else { return }
        if !headers.listElements(for: "Vary").contains(where: { ASCII.equalsIgnoringCase($0, "Origin") }) {
            headers.add(name: "Vary", value: "Origin")
        }
        guard let origin, allows(origin), !headers.contains(name: "Access-Control-Allow-Origin") else { return }
        headers["Access-Control-Allow-Origin"] = origin
        headers["Access-Control-Expose-Headers"] = Self.exposedHeaders
    }

    /// The answer to a preflight from an allowed origin: 204 with the methods the path takes and the header fields
    /// a page may send.
    func preflight(allowing methods: [HTTPRequestMethod]) -> HTTPServerResponse {
        .noContent(headers: [
            "Allow": methods.map(\.rawValue).joined(separator: ", "),
            "Access-Control-Allow-Methods": methods.map(\.rawValue).joined(separator: ", "),
            "Access-Control-Allow-Headers": Self.allowedHeaders,
            "Access-Control-Max-Age": Self.maximumAge,
        ])
    }
}
