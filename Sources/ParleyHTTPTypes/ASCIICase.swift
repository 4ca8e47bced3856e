/// HTTP's one case folding: ASCII letters only, as RFC 9110 compares field names, tokens and schemes.
///
/// `HTTPFields` (both sides) and the server's parser fold case with this, and nothing else, so that a name the
/// client sends and a name the server matches are compared the same way. Non-ASCII bytes compare as they are.
package enum ASCIICase {
    /// The byte in lower case when it is an upper-case ASCII letter; any other byte as it is.
    ///
    /// - Parameter byte: A byte.
    /// - Returns: `0x61` (`a`) for `0x41` (`A`).
    @inlinable
    package static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// Whether two strings are equal ignoring ASCII case.
    ///
    /// - Parameters:
    ///   - lhs: One string.
    ///   - rhs: The other.
    /// - Returns: `true` for `Close` and `close`; `false` for `STRASSE` and `straße`.
    @inlinable
    package static func equal(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8) { lowercased($0) == lowercased($1) }
    }

    /// The string with its ASCII letters in lower case.
    ///
    /// - Parameter string: A string.
    /// - Returns: `x-api-key` for `X-Api-Key`.
    package static func lowercased(_ string: some StringProtocol) -> String {
        String(decoding: string.utf8.map(lowercased), as: UTF8.self)
    }
}
