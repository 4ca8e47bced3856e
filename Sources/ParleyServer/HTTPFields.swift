@_exported public import ParleyHTTPTypes

/// An ordered list of HTTP header fields with case-insensitive lookup, for requests and responses: the one of
/// `ParleyHTTPTypes`, shared with the client (`ParleyHTTP`'s `HTTPHeaders`), so that both sides share one
/// credential list, one case folding and one redacting `description` and mirror: neither `print` nor `dump(_:)`
/// shows an `Authorization`, `Cookie` or API key value.
///
/// ```swift
/// var headers: HTTPFields = ["Content-Type": "application/json"]
/// headers.add(name: "Cache-Control", value: "no-store")
/// request.headers["content-type"]   // "application/json"
/// ```
public typealias HTTPFields = ParleyHTTPTypes.HTTPFields
