/// The request line and header fields of a request, as parsed.
struct RequestHead: Sendable {
    var method: HTTPRequestMethod
    var target: String
    var version: HTTPVersion
    var headers: HTTPFields

    /// Whether the client wants the connection kept open after the response: HTTP/1.1 unless it sent
    /// `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    var wantsKeepAlive: Bool {
        let options = headers.listElements(for: "Connection")
        if options.contains(where: { ASCII.equalsIgnoringCase($0, "close") }) { return false }
        if version >= .http11 { return true }
        return options.contains { ASCII.equalsIgnoringCase($0, "keep-alive") }
    }

    /// The target without its query string, for logs (a query may hold something private).
    var pathForLog: String {
        String(target.prefix { $0 != "?" }.prefix(256))
    }
}
