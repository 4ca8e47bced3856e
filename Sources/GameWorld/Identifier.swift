/// A content identifier such as `silver_sword`, typed by what it names.
///
/// Content ids are lowercase words joined by underscores (`market_square`, `mira`). The phantom type keeps
/// the kinds apart, so an item id cannot be passed where a location id is expected:
///
/// ```swift
/// let sword: ItemID = "silver_sword"
/// let square: LocationID = "market_square"
/// ```
///
/// Ids encode as plain JSON strings, and dictionaries keyed by ids encode as JSON objects.
public struct Identifier<Subject>: Hashable, Comparable, Sendable, Codable, CodingKeyRepresentable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The id as written in content files.
    public let rawValue: String

    /// An id from its text.
    ///
    /// - Parameter rawValue: The id as written in content files, for example `silver_sword`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// An id from a string literal.
    public init(stringLiteral value: String) {
        rawValue = value
    }

    /// The id's text.
    public var description: String { rawValue }

    /// Orders ids by their text.
    public static func < (lhs: Identifier, rhs: Identifier) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether `text` is a well-formed content id: a lowercase letter, then lowercase letters, digits and `_`.
    ///
    /// - Parameter text: The candidate id.
    /// - Returns: `true` for `silver_sword` or `npc_12`, `false` for `Silver Sword`, `12npc` or an empty string.
    public static func isWellFormed(_ text: String) -> Bool {
        guard let first = text.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else {
            return false
        }
        return text.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
    }

    /// A well-formed id made from text that is not one, to suggest in a hint: `Silver Sword!` becomes
    /// `silver_sword`, `12 Oaks` becomes `id_12_oaks`, and text without a letter or digit `my_id`.
    ///
    /// - Parameter text: The text written where an id was expected.
    /// - Returns: An id for which `isWellFormed(_:)` is `true`.
    package static func suggestion(for text: String) -> String {
        var id = ""
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                id.unicodeScalars.append(scalar)
            } else if !id.isEmpty, !id.hasSuffix("_") {
                id += "_"
            }
        }
        while id.hasSuffix("_") { id.removeLast() }
        if id.isEmpty { return "my_id" }
        if let first = id.unicodeScalars.first, ("0"..."9").contains(first) { id = "id_" + id }
        return id
    }

    // MARK: - Codable

    /// Decodes an id from a JSON string.
    ///
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the id as a JSON string.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    // MARK: - CodingKeyRepresentable

    /// The id as a dictionary key.
    public var codingKey: any CodingKey { IdentifierCodingKey(stringValue: rawValue) }

    /// An id from a dictionary key.
    public init?<Key: CodingKey>(codingKey: Key) {
        rawValue = codingKey.stringValue
    }
}

/// The id of an item in the pack's catalog (`items.json`).
public typealias ItemID = Identifier<Item>
/// The id of a location in the world (`world.json`).
public typealias LocationID = Identifier<Location>
/// The id of a non-player character (`npcs/<id>.json`).
public typealias NPCID = Identifier<NPC>
/// The id of a quest declared in `world.json`.
public typealias QuestID = Identifier<Quest>

/// A coding key made from an identifier's text.
private struct IdentifierCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
