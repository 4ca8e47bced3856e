/// The status code of a response, with its reason phrase.
///
/// Write a status as a static member (`.created`) or as an integer literal (`201`). The server sends codes
/// 200–599 from handlers; a code outside that range is a handler bug and is answered with 500 instead.
public struct HTTPStatus: RawRepresentable, Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The three-digit code, for example `404`.
    public var rawValue: Int

    /// Creates a status from its code.
    ///
    /// - Parameter rawValue: The code.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Creates a status from its code.
    ///
    /// - Parameter code: The code.
    public init(_ code: Int) {
        rawValue = code
    }

    /// Creates a status from an integer literal: `let status: HTTPStatus = 404`.
    ///
    /// - Parameter value: The code.
    public init(integerLiteral value: Int) {
        rawValue = value
    }

    /// The code.
    public var code: Int { rawValue }

    /// Whether the code is a success (200–299).
    public var isSuccess: Bool { (200..<300).contains(rawValue) }

    /// Whether a response with this status never has a body (1xx, 204 and 304).
    var forbidsBody: Bool { (100..<200).contains(rawValue) || rawValue == 204 || rawValue == 304 }

    /// The reason phrase of RFC 9110, for example `Not Found`; `Status 599` for codes it does not name.
    public var reasonPhrase: String {
        switch rawValue {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 423: "Locked"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(rawValue)"
        }
    }

    /// The code and reason phrase, for example `404 Not Found`.
    public var description: String { "\(rawValue) \(reasonPhrase)" }

    // MARK: - Statuses

    /// 100 Continue: sent by the server itself before reading a body the client announced with `Expect`.
    public static let `continue`: HTTPStatus = 100
    /// 200 OK.
    public static let ok: HTTPStatus = 200
    /// 201 Created.
    public static let created: HTTPStatus = 201
    /// 202 Accepted.
    public static let accepted: HTTPStatus = 202
    /// 204 No Content: the server sends no body and no `Content-Length`.
    public static let noContent: HTTPStatus = 204
    /// 400 Bad Request.
    public static let badRequest: HTTPStatus = 400
    /// 401 Unauthorized.
    public static let unauthorized: HTTPStatus = 401
    /// 403 Forbidden.
    public static let forbidden: HTTPStatus = 403
    /// 404 Not Found.
    public static let notFound: HTTPStatus = 404
    /// 405 Method Not Allowed.
    public static let methodNotAllowed: HTTPStatus = 405
    /// 406 Not Acceptable.
    public static let notAcceptable: HTTPStatus = 406
    /// 408 Request Timeout.
    public static let requestTimeout: HTTPStatus = 408
    /// 409 Conflict.
    public static let conflict: HTTPStatus = 409
    /// 410 Gone.
    public static let gone: HTTPStatus = 410
    /// 411 Length Required.
    public static let lengthRequired: HTTPStatus = 411
    /// 413 Content Too Large.
    public static let contentTooLarge: HTTPStatus = 413
    /// 414 URI Too Long.
    public static let uriTooLong: HTTPStatus = 414
    /// 415 Unsupported Media Type.
    public static let unsupportedMediaType: HTTPStatus = 415
    /// 417 Expectation Failed.
    public static let expectationFailed: HTTPStatus = 417
    /// 421 Misdirected Request: the request was addressed (`Host`) to a name this server does not answer to.
    public static let misdirectedRequest: HTTPStatus = 421
    /// 422 Unprocessable Content.
    public static let unprocessableContent: HTTPStatus = 422
    /// 423 Locked.
    public static let locked: HTTPStatus = 423
    /// 429 Too Many Requests.
    public static let tooManyRequests: HTTPStatus = 429
    /// 431 Request Header Fields Too Large.
    public static let requestHeaderFieldsTooLarge: HTTPStatus = 431
    /// 500 Internal Server Error.
    public static let internalServerError: HTTPStatus = 500
    /// 501 Not Implemented.
    public static let notImplemented: HTTPStatus = 501
    /// 503 Service Unavailable.
    public static let serviceUnavailable: HTTPStatus = 503
    /// 504 Gateway Timeout.
    public static let gatewayTimeout: HTTPStatus = 504
    /// 505 HTTP Version Not Supported.
    public static let httpVersionNotSupported: HTTPStatus = 505
}
