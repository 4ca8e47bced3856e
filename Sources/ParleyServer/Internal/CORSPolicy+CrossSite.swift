// Requests that change something, from pages of other sites: a web page can send a `POST` (a form, or `fetch` with
// `text/plain`) to a server on the player's own machine without reading its answer, and that is enough to start
// games or replay saves. Browsers say where such a request comes from (`Origin`, `Sec-Fetch-Site`); programs that are
// not browsers send neither, and are not affected.

extension CORSPolicy {
    /// Whether a request is refused as coming from a page of another site: a method that may change something (any but
    /// `GET`, `HEAD` and `OPTIONS`) whose `Origin` is neither an allowed one (``allows(_:)``) nor the server's own
    /// (``HostPolicy/isOwnOrigin(_:host:)``), or that the browser says is `cross-site` (`Sec-Fetch-Site`) without an
    /// allowed `Origin`. A request with neither field (curl, a game engine) is never refused here. The server's own
    /// origins are the names it answers to, never just whatever `Host` the request carries.
    ///
    /// - Parameters:
    ///   - method: The request's method.
    ///   - headers: The request's header fields.
    ///   - hosts: The names the server answers to.
    /// - Returns: Whether to refuse it with `403`.
    func refusesCrossSite(_ method: HTTPRequestMethod, _ headers: HTTPFields, hosts: HostPolicy) -> Bool {
        guard method != .get, method != .head, method != .options else { return false }
        let origin = headers["Origin"]
        if let origin, allows(origin) { return false }
        if let site = headers["Sec-Fetch-Site"], ASCII.equalsIgnoringCase(site, "cross-site") { return true }
        guard let origin else { return false }
        return !hosts.isOwnOrigin(origin, host: headers["Host"])
    }

    /// The problem a refused cross-site request gets: `403`, `urn:parley:problem:cross-site-request`.
    static func crossSiteProblem(origin: String?) -> ProblemDetails {
        let from = origin.map { "from \(String($0.prefix(256)).debugDescription) " } ?? ""
        return ProblemDetails(
            .forbidden,
            detail: "This request \(from)came from a page of another site, which may not change anything here: "
                + "send it from this server's own pages, from a program that is not a browser, or from a page whose "
                + "origin the server allows (parley serve --cors-origin ORIGIN).",
            title: "Cross-site request", type: "urn:parley:problem:cross-site-request")
    }
}
