/// The status line and header fields of a response as sent: the handler's fields, checked, plus the ones the
/// server owns (`Date`, `X-Request-Id`, the framing and `Connection`).
struct ResponseHead {
    /// How the body that follows is delimited.
    enum Framing: Equatable {
        /// No body may follow (1xx, 204, 304): no `Content-Length`.
        case none
        /// `Content-Length`; for `HEAD`, the length the body would have.
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// Neither: the body ends when the connection closes (streams to HTTP/1.0 clients), or, for `HEAD` of a
        /// stream, is not known.
        case unframed
    }

    /// The fields the server sets itself; a handler's copies are dropped.
    static let serverOwnedFields = [
        "Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "Date", "X-Request-Id",
    ]

    let status: HTTPStatus
    let headers: HTTPFields
    let framing: Framing
    let closesConnection: Bool
    /// Whether to say `Connection: keep-alive`: for an HTTP/1.0 client that asked for it.
    let announcesKeepAlive: Bool
    let requestID: String?

    /// What is wrong with a handler's status or fields, or `nil` when they can be sent.
    static func problem(status: HTTPStatus, headers: HTTPFields) -> String? {
        guard (200...599).contains(status.code) else {
            return "the status \(status.code) is not a final status (200–599)"
        }
        for field in headers {
            guard ASCII.isToken(field.name) else {
                return "the header field name \"\(field.name.prefix(64))\" is not an HTTP token"
            }
            guard ASCII.isFieldValue(field.value) else {
                return "the value of the header field \(field.name) has a line break or another control character"
            }
        }
        return nil
    }

    /// Whether a handler asked to close the connection after the response.
    static func asksToClose(_ headers: HTTPFields) -> Bool {
        headers.listElements(for: "Connection").contains { ASCII.equalsIgnoringCase($0, "close") }
    }

    /// The bytes of the head, ending with the blank line.
    func serialized() -> [UInt8] {
        var text = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        text += "Date: \(HTTPDate.now())\r\n"
        for field in headers where !Self.serverOwnedFields.contains(where: { ASCII.equalsIgnoringCase($0, field.name) })
        {
            text += "\(field.name): \(field.value)\r\n"
        }
        if let requestID { text += "X-Request-Id: \(requestID)\r\n" }
        switch framing {
        case .none, .unframed: break
        case .length(let length): text += "Content-Length: \(length)\r\n"
        case .chunked: text += "Transfer-Encoding: chunked\r\n"
        }
        if closesConnection {
            text += "Connection: close\r\n"
        } else if announcesKeepAlive {
            text += "Connection: keep-alive\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }
}
