/// A tag on an item that game rules look at, such as `quest` or `untradeable`.
///
/// Packs may use their own tags as well; the rules only know the ones below. The checker warns about a tag
/// that is one typo away from a known one (`qeust`).
public struct ItemTag: Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The tag as written in `items.json`.
    public let rawValue: String

    /// A tag from its text.
    ///
    /// - Parameter rawValue: The tag as written in `items.json`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A tag from a string literal.
    public init(stringLiteral value: String) {
        rawValue = value
    }

    /// A quest item: it can be given, taken and received, but never bought or sold.
    public static let quest = ItemTag("quest")
    /// An item that can never be bought or sold (a guard's badge, a family heirloom).
    public static let untradeable = ItemTag("untradeable")

    /// The tags the game rules act on.
    public static let known: [ItemTag] = [.quest, .untradeable]

    /// The tag's text.
    public var description: String { rawValue }

    /// Orders tags by their text.
    public static func < (lhs: ItemTag, rhs: ItemTag) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Decodes a tag from a JSON string.
    ///
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the tag as a JSON string.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
