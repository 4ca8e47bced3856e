public import ParleyHTTPTypes

/// The method of a request the server received, such as `GET` or `POST`: `ParleyHTTPTypes`' `HTTPMethod`, shared
/// with the client. Methods are case-sensitive, as HTTP says: `get` is not `GET`.
public typealias HTTPRequestMethod = HTTPMethod
