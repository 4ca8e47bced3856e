/// An HTTP request method such as `GET` or `POST`.
///
/// A struct rather than an enum so that uncommon methods can be written without changing this type:
/// `HTTPMethod(rawValue: "PROPFIND")`. The name must be an HTTP token (letters, digits and `!#$%&'*+-.^_`|~`);
/// the client rejects other names with ``HTTPClientError/invalidRequest``.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The method name as sent, for example `"GET"`.
    public var rawValue: String

    /// Creates a method from its name.
    ///
    /// - Parameter rawValue: The method name; HTTP method names are case-sensitive and usually upper case.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `GET`: fetch a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`: send a body for processing.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource with the body.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`: like `GET` without the response body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`: ask which methods a resource supports.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// The method name.
    public var description: String { rawValue }
}
