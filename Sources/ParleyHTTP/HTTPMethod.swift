public import ParleyHTTPTypes

/// An HTTP request method such as `GET` or `POST`: the one of `ParleyHTTPTypes`, shared with the server. The client
/// rejects a name that is not an HTTP token with ``HTTPClientError/invalidRequest``.
public typealias HTTPMethod = ParleyHTTPTypes.HTTPMethod
