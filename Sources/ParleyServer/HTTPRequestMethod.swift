/// The method of a request the server received, such as `GET` or `POST`.
///
/// A struct rather than an enum so that any method a client sends can be represented and routed:
/// `HTTPRequestMethod(rawValue: "PROPFIND")`. Methods are case-sensitive, as HTTP says: `get` is not `GET`.
public struct HTTPRequestMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The method name as sent, for example `"GET"`.
    public var rawValue: String

    /// Creates a method from its name.
    ///
    /// - Parameter rawValue: The method name; usually upper case.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `GET`: fetch a resource.
    public static let get = HTTPRequestMethod(rawValue: "GET")
    /// `HEAD`: like `GET` without the response body; the router answers it with the `GET` route.
    public static let head = HTTPRequestMethod(rawValue: "HEAD")
    /// `POST`: send a body for processing.
    public static let post = HTTPRequestMethod(rawValue: "POST")
    /// `PUT`: replace a resource with the body.
    public static let put = HTTPRequestMethod(rawValue: "PUT")
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPRequestMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPRequestMethod(rawValue: "DELETE")
    /// `OPTIONS`: ask which methods a resource supports; the router answers it unless a route handles it.
    public static let options = HTTPRequestMethod(rawValue: "OPTIONS")

    /// The method name.
    public var description: String { rawValue }

}
