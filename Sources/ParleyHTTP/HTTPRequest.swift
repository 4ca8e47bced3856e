import Foundation

/// An HTTP request: method, URL, headers, optional body and time limits.
///
/// Build one with ``get(_:headers:)`` or ``postJSON(_:body:headers:accept:)`` and adjust the fields, or use
/// the memberwise initializer. Only `http` and `https` URLs are accepted; redirects are not followed.
///
/// Printing a request (``description``, `dump(_:)`) shows the URL without its query string and user
/// information, and never the values of credential headers such as `Authorization`.
///
/// ```swift
/// var request = HTTPRequest.postJSON("http://127.0.0.1:8080/v1/chat/completions", body: json)
/// request.headers["Authorization"] = "Bearer \(apiKey)"
/// request.idleTimeout = .seconds(60)
/// ```
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The absolute `http` or `https` URL, for example `http://127.0.0.1:8080/health`.
    public var url: String
    /// The request headers. A body without a `Content-Type` is sent as `application/octet-stream`.
    public var headers: HTTPHeaders
    /// The request body, or `nil` for none.
    public var body: Data?
    /// The longest time to wait for the connection (DNS, TCP and TLS) to be established; `nil` uses
    /// libcurl's default of 300 seconds.
    public var connectTimeout: Duration?
    /// The longest time the whole request may take, connection and body included; `nil` means no limit.
    ///
    /// Language model replies can take minutes: prefer ``idleTimeout`` for streams.
    public var timeout: Duration?
    /// The longest time without receiving a single byte (headers or body) before the request fails;
    /// `nil` means no limit.
    ///
    /// The clock starts when the request is started and restarts with every byte received. Time during which
    /// the transfer is paused because the reader of a streamed body is behind does not count.
    public var idleTimeout: Duration?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - url: The absolute `http` or `https` URL.
    ///   - headers: The request headers.
    ///   - body: The request body, or `nil`.
    ///   - connectTimeout: The connection time limit; defaults to 10 seconds.
    ///   - timeout: The overall time limit; `nil` for none.
    ///   - idleTimeout: The time limit between received bytes; `nil` for none.
    public init(
        method: HTTPMethod,
        url: String,
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        connectTimeout: Duration? = .seconds(10),
        timeout: Duration? = nil,
        idleTimeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.idleTimeout = idleTimeout
    }

    /// A `GET` request.
    ///
    /// - Parameters:
    ///   - url: The absolute `http` or `https` URL.
    ///   - headers: Extra request headers.
    /// - Returns: The request, with default time limits.
    public static func get(_ url: String, headers: HTTPHeaders = [:]) -> HTTPRequest {
        HTTPRequest(method: .get, url: url, headers: headers)
    }

    /// A `POST` request with a JSON body.
    ///
    /// Sets `Content-Type: application/json` and `Accept` (unless `headers` already has them).
    ///
    /// - Parameters:
    ///   - url: The absolute `http` or `https` URL.
    ///   - body: The encoded JSON document.
    ///   - headers: Extra request headers.
    ///   - accept: The `Accept` value; use `text/event-stream` for server-sent events.
    /// - Returns: The request, with default time limits.
    public static func postJSON(
        _ url: String,
        body: Data,
        headers: HTTPHeaders = [:],
        accept: String = "application/json"
    ) -> HTTPRequest {
        var allHeaders = headers
        if !allHeaders.contains(name: "Content-Type") {
            allHeaders.add(name: "Content-Type", value: "application/json")
        }
        if !allHeaders.contains(name: "Accept") {
            allHeaders.add(name: "Accept", value: accept)
        }
        return HTTPRequest(method: .post, url: url, headers: allHeaders, body: body)
    }

    /// A `POST` request whose JSON body is encoded from a value.
    ///
    /// - Parameters:
    ///   - url: The absolute `http` or `https` URL.
    ///   - value: The value to encode.
    ///   - encoder: The encoder to use.
    ///   - headers: Extra request headers.
    ///   - accept: The `Accept` value.
    /// - Returns: The request, with default time limits.
    /// - Throws: The encoder's error when `value` cannot be encoded.
    public static func postJSON(
        _ url: String,
        encoding value: some Encodable,
        encoder: JSONEncoder = JSONEncoder(),
        headers: HTTPHeaders = [:],
        accept: String = "application/json"
    ) throws -> HTTPRequest {
        postJSON(url, body: try encoder.encode(value), headers: headers, accept: accept)
    }

    /// The URL without query string, fragment or user information: safe to print.
    public var redactedURL: String { URLRedactor.redact(url) }
}

// MARK: - Printing without secrets

extension HTTPRequest: CustomStringConvertible, CustomReflectable {
    /// The method and the redacted URL, for example `POST http://127.0.0.1:8080/v1/chat/completions`.
    public var description: String { "\(method) \(redactedURL)" }

    /// A mirror with the redacted URL and redacted headers, so `dump(_:)` prints no secrets.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method.rawValue,
                "url": redactedURL,
                "headers": headers,
                "bodyBytes": body?.count ?? 0,
                "connectTimeout": connectTimeout as Any,
                "timeout": timeout as Any,
                "idleTimeout": idleTimeout as Any,
            ] as KeyValuePairs<String, Any>,
            displayStyle: .struct
        )
    }
}
