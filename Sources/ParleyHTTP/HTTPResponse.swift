import Foundation

/// A complete HTTP response: status, headers and the whole body.
///
/// Returned by ``HTTPClient/execute(_:maximumBodySize:)`` for every status, errors included. Call
/// ``checkStatus()`` to turn a non-success status into an ``HTTPStatusError`` that carries the body:
///
/// ```swift
/// let body = try await client.execute(.get(url)).checkStatus().body
/// ```
public struct HTTPResponse: Sendable {
    /// The status code, for example `200`.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The response body; empty when there was none.
    public var body: Data
    /// The request URL without query string, fragment or user information.
    public var url: String
    /// Removes the request's credentials from what the server echoes, in the errors made from this response.
    var redactor = SecretRedactor()

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The response headers.
    ///   - body: The response body.
    ///   - url: The request URL; it is redacted before it is stored.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data(), url: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = URLRedactor.redact(url)
    }

    /// Whether the status is a success (200–299).
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body decoded as UTF-8, with invalid bytes replaced by U+FFFD.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Returns this response when its status is a success, and throws otherwise.
    ///
    /// - Returns: This response, for chaining.
    /// - Throws: ``HTTPStatusError`` with the status, headers and body when the status is outside 200–299.
    @discardableResult
    public func checkStatus() throws(HTTPStatusError) -> HTTPResponse {
        guard isSuccess else {
            throw HTTPStatusError(status: status, headers: headers, body: body, url: url, redactor: redactor)
        }
        return self
    }
}
