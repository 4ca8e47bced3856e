/// An HTTP request method such as `GET` or `POST`, as the client sends it and the server receives it.
///
/// A struct rather than an enum so that any method can be written and routed without changing this type:
/// `HTTPMethod(rawValue: "PROPFIND")`. Methods are case-sensitive, as HTTP says: `get` is not `GET`. The name must be
/// an HTTP token (letters, digits and `!#$%&'*+-.^_`|~`); the client rejects other names with
/// `HTTPClientError.invalidRequest`. `ParleyServer` also calls it `HTTPRequestMethod`.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The method name as sent, for example `"GET"`.
    public var rawValue: String

    /// Creates a method from its name.
    ///
    /// - Parameter rawValue: The method name; usually upper case.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `GET`: fetch a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: like `GET` without the response body; the server's router answers it with the `GET` route.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: send a body for processing.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource with the body.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: ask which methods a resource supports; the server's router answers it unless a route handles it.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// The method name.
    public var description: String { rawValue }
}
