import ParleyHTTPTypes

/// The byte classes of HTTP's grammar (RFC 9110 and 9112), for the request parser and the response checks.
enum ASCII {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A

    /// A `tchar`: the characters of methods and field names.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Whether a whole string is a non-empty token.
    static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }

    /// A byte allowed in a field value: visible characters, space, tab and obs-text; no controls.
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= 0x20 && byte != 0x7F)
    }

    /// Whether a whole string may be sent as a field value: no CR, LF, NUL or other control characters.
    static func isFieldValue(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy(isFieldValueByte)
    }

    /// The value of a hexadecimal digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// The byte in lower case when it is an upper-case ASCII letter: HTTP's one case folding, `ASCIICase`.
    static func lowercased(_ byte: UInt8) -> UInt8 { ASCIICase.lowercased(byte) }

    /// Whether two strings are equal ignoring ASCII case, as `ASCIICase` folds it.
    static func equalsIgnoringCase(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        ASCIICase.equal(lhs, rhs)
    }
}
