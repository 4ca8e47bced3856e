import Foundation

/// A complete HTTP response whose status is not a success (outside 200–299).
///
/// Thrown by ``HTTPResponse/checkStatus()`` and ``HTTPStreamingResponse/checkStatus(maximumBodySize:)``; it
/// carries everything a caller needs to report or handle the failure: the status, the headers and the body,
/// as bytes and as text (servers put their explanation there, for example llama-server's
/// `{"error":{"message":"…"}}`).
///
/// ``description`` names the URL without its query string, quotes the start of the body, and says what to do.
/// When ``HTTPClient`` made the response, the request's credentials are already removed from the body and the
/// header values (see ``SecretRedactor``): a server that echoes the API key does not put it in the error.
public struct HTTPStatusError: Error, Sendable, CustomStringConvertible {
    /// Bodies longer than this are quoted only in part in ``description``.
    public static let quotedBodyLimit = 500

    /// The response status code, for example `404`.
    public let status: Int
    /// The response headers.
    public let headers: HTTPHeaders
    /// The response body, possibly cut at the limit the caller gave.
    public let body: Data
    /// The request URL without query string, fragment or user information.
    public let url: String

    /// Creates a status error.
    ///
    /// - Parameters:
    ///   - status: The response status code.
    ///   - headers: The response headers.
    ///   - body: The response body.
    ///   - url: The request URL; it is redacted before it is stored.
    public init(status: Int, headers: HTTPHeaders, body: Data, url: String) {
        self.init(status: status, headers: headers, body: body, url: url, redactor: SecretRedactor())
    }

    /// A status error whose body and header values have the request's credentials removed.
    init(status: Int, headers: HTTPHeaders, body: Data, url: String, redactor: SecretRedactor) {
        self.status = status
        var redactedHeaders = HTTPHeaders()
        for field in headers {
            redactedHeaders.add(name: field.name, value: redactor.redact(field.value))
        }
        self.headers = redactedHeaders
        self.body = redactor.redact(body)
        self.url = URLRedactor.redact(url)
    }

    /// The body decoded as UTF-8, with invalid bytes replaced by U+FFFD.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// What happened, to which URL, what the server said, and what to do.
    public var description: String {
        var quoted = SecretRedactor.redactBearerTokens(in: bodyText.trimmingCharacters(in: .whitespacesAndNewlines))
        if quoted.count > Self.quotedBodyLimit {
            quoted = String(quoted.prefix(Self.quotedBodyLimit)) + "…"
        }
        let said = quoted.isEmpty ? " with an empty body" : ": \(quoted)"
        return "The server at \(url) answered HTTP \(status)\(said). \(advice)"
    }

    private var advice: String {
        switch status {
        case 400, 422: return "The server rejected the request body; check it against the server's API."
        case 401, 403: return "The server refused the credentials; check the API key or token."
        case 404: return "Check the URL's path and that the server provides this endpoint."
        case 408, 429: return "The server is busy or rate-limiting; retry later."
        case 503: return "The server is unavailable or still loading its model; retry in a moment."
        case 300..<400: return "The server redirects, which this client does not follow; use the final URL."
        case 400..<500: return "The request was not accepted; check the URL, the body and the headers."
        case 500..<600: return "The server failed; check its log, and retry."
        default: return "The status is not a success; check the server's documentation."
        }
    }
}
