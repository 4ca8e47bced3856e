@_exported public import ParleyHTTPTypes

/// An ordered list of HTTP header fields with case-insensitive lookup: the `HTTPFields` of `ParleyHTTPTypes`, which
/// the server uses too, so that both sides share one credential list, one case folding and one redacting
/// `description` and mirror.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "text/event-stream"]
/// headers.add(name: "Authorization", value: "Bearer \(apiKey)")
/// headers["accept"]  // "text/event-stream"
/// ```
public typealias HTTPHeaders = HTTPFields
