/// The status and headers of a response: what ``HTTPClient/stream(_:)`` waits for.
struct ResponseHead: Sendable {
    var status: Int
    var headers: HTTPHeaders
}
