/// The server's bearer token and the check of a request's `Authorization` field against it (RFC 6750).
struct BearerToken: Sendable {
    /// The shortest token accepted.
    static let minimumLength = 16

    private let bytes: [UInt8]

    /// Checks that a token can be sent in an `Authorization` field and is long enough to guess hard.
    init(_ token: String) throws(HTTPServerError) {
        let allowed = token.utf8.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
                UInt8(ascii: "/"), UInt8(ascii: "="):
                true
            default: false
            }
        }
        guard allowed else {
            throw HTTPServerError.invalidToken.with(detail: "it has a character other than letters, digits and -._~+/=")
        }
        guard token.utf8.count >= Self.minimumLength else {
            throw HTTPServerError.invalidToken.with(
                detail: "it has \(token.utf8.count) characters, fewer than \(Self.minimumLength)")
        }
        bytes = Array(token.utf8)
    }

    /// `nil` when the request presents this token, otherwise the 401 to answer with.
    func check(_ headers: HTTPFields) -> RequestFailure? {
        let values = headers.values(for: "Authorization")
        guard !values.isEmpty else {
            return RequestFailure(
                .unauthorized,
                "This server needs a bearer token. Send it as Authorization: Bearer <token>, with the token the "
                    + "server was started with.",
                headers: ["WWW-Authenticate": "Bearer"])
        }
        let invalid = RequestFailure(
            .unauthorized,
            "The bearer token is not the one this server was started with. Send the server's token as "
                + "Authorization: Bearer <token>.",
            headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
        guard values.count == 1 else { return invalid }
        let value = Array(values[0].utf8)
        let scheme = Array("bearer".utf8)
        guard value.count > scheme.count, value[scheme.count] == ASCII.space,
            zip(value.prefix(scheme.count), scheme).allSatisfy({ ASCII.lowercased($0) == $1 })
        else { return invalid }
        let presented = value.dropFirst(scheme.count).drop { $0 == ASCII.space }
        return Self.constantTimeEquals(Array(presented), bytes) ? nil : invalid
    }

    /// Compares two byte strings in a time that depends only on the length of `expected`, not on where they
    /// differ, so that timing the answers does not reveal the token byte by byte.
    static func constantTimeEquals(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference: UInt8 = presented.count == expected.count ? 0 : 1
        for index in expected.indices {
            let byte = index < presented.count ? presented[index] : 0
            difference |= byte ^ expected[index]
        }
        return difference == 0
    }
}
