import ParleyBasics

/// How a request's body is delimited (RFC 9112 section 6), decided from its header fields before any of the
/// body is read.
enum RequestFraming: Equatable {
    /// No body.
    case none
    /// `Content-Length` bytes.
    case length(Int)
    /// `Transfer-Encoding: chunked`.
    case chunked

    /// Whether body bytes follow the head.
    var hasBody: Bool {
        switch self {
        case .none, .length(0): false
        case .length, .chunked: true
        }
    }

    /// The framing of a request, refusing what is ambiguous (both `Content-Length` and `Transfer-Encoding`,
    /// several different lengths), unsupported (a transfer coding other than chunked: 501), too large (a length
    /// beyond the limit: 413); without either header a request has no body.
    init(of head: RequestHead, limits: HTTPServer.Limits) throws(RequestFailure) {
        let codings = head.headers.listElements(for: "Transfer-Encoding")
        let lengths = head.headers.values(for: "Content-Length")
        if head.headers.contains(name: "Transfer-Encoding") {
            guard head.version >= .http11 else {
                throw .badRequest(
                    "An HTTP/1.0 request cannot use Transfer-Encoding. Send Content-Length, or use HTTP/1.1.")
            }
            guard lengths.isEmpty else {
                throw .badRequest(
                    "The request has both Transfer-Encoding and Content-Length, which is ambiguous. Send one of them.")
            }
            if let unknown = codings.first(where: { !ASCII.equalsIgnoringCase($0, "chunked") }) {
                throw RequestFailure(
                    .notImplemented,
                    "The transfer coding \"\(unknown.prefix(64))\" is not supported. Send the body with "
                        + "Content-Length or Transfer-Encoding: chunked.")
            }
            guard codings.count == 1 else {
                throw .badRequest("The request's Transfer-Encoding is empty or names chunked twice. Send chunked once.")
            }
            self = .chunked
            return
        }
        if !lengths.isEmpty {
            var length: Int?
            for element in lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
                let digits = element.trimmingASCIIWhitespace()
                guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    throw .badRequest("The Content-Length \"\(digits.prefix(32))\" is not a number of bytes.")
                }
                // Saturating, so that an absurd length is "too large" rather than a trap or a wrap.
                let value = digits.utf8.reduce(0) { $0.saturatingMultiplied(by: 10).saturatingAdding(Int($1 - 0x30)) }
                guard length == nil || length == value else {
                    throw .badRequest("The request has several different Content-Length values. Send one.")
                }
                length = value
            }
            let bytes = length ?? 0
            guard bytes <= limits.maximumBodySize else {
                throw RequestFailure(
                    .contentTooLarge,
                    "The request body is \(bytes) bytes; this server takes at most \(limits.maximumBodySize). "
                        + "Send a smaller body.")
            }
            self = .length(bytes)
            return
        }
        // Neither header: the body is empty, as RFC 9112 (§6.3) says of requests. Clients that send an empty POST
        // without `Content-Length` (Godot 3's HTTPClient does) are answered, not refused with 411.
        self = .none
    }
}
