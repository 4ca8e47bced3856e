/// A stable 64-bit fingerprint of a content pack, so a save game can notice that its pack changed.
///
/// It is FNV-1a (64-bit) over each file's relative path and its canonical JSON (compact, keys sorted), files in
/// path order. Whitespace, indentation and the order of object members do not change it; any change of a value
/// does. It is a change detector, not a security measure.
public struct ContentHash: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 64-bit hash value.
    public let value: UInt64

    /// A hash from its value.
    ///
    /// - Parameter value: The 64-bit value.
    public init(value: UInt64) {
        self.value = value
    }

    /// A hash from 16 hexadecimal digits, or `nil` when the text is not that.
    ///
    /// - Parameter hex: For example `cbf29ce484222325`.
    public init?(hex: String) {
        guard hex.utf8.count == 16, let value = UInt64(hex, radix: 16) else { return nil }
        self.value = value
    }

    /// The hash as 16 lowercase hexadecimal digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash as 16 lowercase hexadecimal digits.
    public var description: String { hex }

    /// The FNV-1a 64-bit offset basis: the hash of nothing.
    public static let empty = ContentHash(value: 0xcbf2_9ce4_8422_2325)

    /// This hash continued over `bytes`.
    ///
    /// - Parameter bytes: The bytes to add.
    /// - Returns: The hash of everything hashed so far followed by `bytes`.
    public func adding(_ bytes: some Sequence<UInt8>) -> ContentHash {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return ContentHash(value: hash)
    }

    /// This hash continued over a string's UTF-8 bytes and a terminating zero byte.
    ///
    /// - Parameter string: The text to add.
    /// - Returns: The continued hash.
    public func adding(_ string: String) -> ContentHash { adding(string.utf8).adding([0]) }

    /// Encodes the hash as its 16 hexadecimal digits.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    /// Decodes a hash from its 16 hexadecimal digits.
    ///
    /// - Throws: `DecodingError` when the text is not 16 hexadecimal digits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let hash = ContentHash(hex: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a content hash: \(text)")
        }
        self = hash
    }
}
