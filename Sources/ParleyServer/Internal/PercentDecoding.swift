/// Percent-decoding (RFC 3986 section 2.1) of path segments and query components.
enum PercentDecoding {
    /// The decoded bytes, or `nil` when a `%` is not followed by two hexadecimal digits.
    ///
    /// - Parameters:
    ///   - bytes: The encoded bytes.
    ///   - plusIsSpace: Whether `+` decodes to a space (query strings, as HTML forms send them).
    static func decode(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> [UInt8]? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            switch byte {
            case UInt8(ascii: "%"):
                guard index != bytes.endIndex, let high = ASCII.hexValue(bytes[index]) else { return nil }
                index = bytes.index(after: index)
                guard index != bytes.endIndex, let low = ASCII.hexValue(bytes[index]) else { return nil }
                index = bytes.index(after: index)
                decoded.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                decoded.append(ASCII.space)
            default:
                decoded.append(byte)
            }
        }
        return decoded
    }

    /// The decoded text, or `nil` when the escapes are malformed or the bytes are not UTF-8.
    static func decodeText(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> String? {
        guard let decoded = decode(bytes, plusIsSpace: plusIsSpace) else { return nil }
        return String(validating: decoded, as: UTF8.self)
    }
}
