import Foundation

/// A request as the ``LoopbackHTTPServer`` received it.
public struct LoopbackRequest: Sendable {
    /// The method, for example `POST`.
    public let method: String
    /// The request target as sent: path and query, for example `/v1/models?x=1`.
    public let target: String
    /// The header fields in the order received.
    public let headers: [(name: String, value: String)]
    /// The body, decoded from chunked transfer encoding if it was sent that way; empty when there was none.
    public let body: Data

    /// Creates a request record.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The request target.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(method: String, target: String, headers: [(name: String, value: String)], body: Data) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The target without its query string.
    public var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The query string without the `?`, or `nil` when there is none.
    public var query: String? {
        target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) }
    }

    /// The first value of a header, compared case-insensitively.
    ///
    /// - Parameter name: The header name.
    /// - Returns: The value, or `nil` when absent.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body decoded as UTF-8.
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }
}
