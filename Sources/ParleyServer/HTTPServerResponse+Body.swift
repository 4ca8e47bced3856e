import Foundation

extension HTTPServerResponse {
    /// The body of a response: complete, or written while it is sent.
    public enum Body: Sendable {
        /// A complete body, sent with `Content-Length`.
        case bytes(Data)
        /// A body written piece by piece, sent with `Transfer-Encoding: chunked`.
        case stream(ResponseBodyStream)
    }
}
