import Foundation

/// A validated ``HTTPRequest``, ready to hand to the engine thread.
///
/// Validation happens on the caller's side so that a malformed request fails at once with a clear error, and
/// so that nothing reaches libcurl that could inject extra header lines.
struct PreparedRequest: Sendable {
    let method: HTTPMethod
    let url: String
    let redactedURL: String
    /// Header lines in libcurl's syntax: `Name: value`, or `Name;` for an empty value.
    let headerLines: [String]
    let body: Data?
    let connectTimeout: Duration?
    let timeout: Duration?
    let idleTimeout: Duration?

    init(_ request: HTTPRequest, userAgent: String) throws(HTTPClientError) {
        redactedURL = URLRedactor.redact(request.url)
        let lowered = request.url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw HTTPClientError.invalidURL.with(url: redactedURL, detail: "only http:// and https:// are supported")
        }
        guard !request.url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) else {
            throw HTTPClientError.invalidURL.with(url: redactedURL, detail: "it contains whitespace")
        }
        guard Self.isToken(request.method.rawValue) else {
            throw HTTPClientError.invalidRequest.with(url: redactedURL, detail: "the method is not an HTTP token")
        }
        method = request.method
        url = request.url
        body = request.body
        connectTimeout = request.connectTimeout
        timeout = request.timeout
        idleTimeout = request.idleTimeout

        var headers = request.headers
        for field in headers {
            guard Self.isToken(field.name) else {
                throw HTTPClientError.invalidRequest.with(
                    url: redactedURL, detail: "the header name \"\(field.name.prefix(100))\" is not an HTTP token")
            }
            // The value is never quoted: it may be a credential.
            guard !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                throw HTTPClientError.invalidRequest.with(
                    url: redactedURL, detail: "the value of header \(field.name) contains a line break or NUL")
            }
        }
        if !headers.contains(name: "User-Agent") {
            headers.add(name: "User-Agent", value: userAgent)
        }
        // Without this, libcurl labels a body as a form (application/x-www-form-urlencoded).
        if request.body != nil, !headers.contains(name: "Content-Type") {
            headers.add(name: "Content-Type", value: "application/octet-stream")
        }
        var lines = headers.map { field in
            field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
        }
        // libcurl may send `Expect: 100-continue` and then wait for an answer many servers never give;
        // an empty `Expect:` line tells it not to.
        if !headers.contains(name: "Expect") {
            lines.append("Expect:")
        }
        headerLines = lines
    }

    /// Whether `text` is an HTTP token (RFC 9110 section 5.6.2): the syntax of methods and header names.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}
