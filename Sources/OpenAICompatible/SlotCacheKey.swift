/// Whose KV cache a request builds on, so that llama-server's slot files keep it between turns, NPCs and processes.
///
/// A backend copy made with `OpenAICompatibleLanguageModel.keepingCache(as:)` carries a key; before its requests the
/// backend makes sure that the server slot they run in holds this key's cache, restoring it from the key's file
/// (and saving the slot's previous holder to its own file first). Parley keys an NPC by the world it lives in and its
/// id:
///
/// ```swift
/// let mira = backend.keepingCache(as: SlotCacheKey(scope: "brackenford", name: "mira"))
/// mira.cacheFileName   // "parley-brackenford-mira-3f09c1d2a4b5e6f7"
/// ```
///
/// The file name is safe to send to any server: only `a`–`z`, `0`–`9`, `-` and `_`, at most 80 characters, never a
/// path. It ends in a hash of the scope, the name, and the model's id and version, so two keys whose readable parts
/// look alike still get two files, and a cache is never restored into another model (or another build of the
/// server, whose cache format may differ).
public struct SlotCacheKey: Sendable, Hashable, CustomStringConvertible {
    /// What the key belongs to: a world's id, or a save's, in which `name` is unique.
    public let scope: String
    /// The key within its scope: an NPC's id.
    public let name: String

    /// Creates a key.
    ///
    /// - Parameters:
    ///   - scope: A world's or save's identity.
    ///   - name: An NPC's id.
    public init(scope: String, name: String) {
        self.scope = scope
        self.name = name
    }

    /// The longest file name a key gives.
    public static let maximumFileNameLength = 80

    /// The name of the file this key's cache is kept in, for one model.
    ///
    /// - Parameters:
    ///   - modelID: The model's id (`OpenAICompatibleLanguageModel.id`).
    ///   - modelVersion: The model's version (`OpenAICompatibleLanguageModel.version`: its file and the server's
    ///     build, for llama-server).
    /// - Returns: `parley-<scope>-<name>-<16 hex digits>`, with the scope and name lowercased, every character
    ///   outside `a`–`z`, `0`–`9`, `-` and `_` made `-`, and shortened to 24 and 31 characters.
    public func fileName(modelID: String, modelVersion: String) -> String {
        let hash = Self.fnv1a64([scope, name, modelID, modelVersion].joined(separator: "\u{0}"))
        let digits = String(hash, radix: 16)
        return "parley-\(Self.slug(scope, limit: 24))-\(Self.slug(name, limit: 31))-"
            + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `scope/name`.
    public var description: String { "\(scope)/\(name)" }

    /// Lowercase ASCII letters and digits, `-` and `_`; anything else becomes `-`; at most `limit` characters, and
    /// `x` for an empty result.
    static func slug(_ text: String, limit: Int) -> String {
        let characters = text.lowercased().unicodeScalars.prefix(limit).map { scalar -> Character in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
                ? Character(scalar) : "-"
        }
        return characters.isEmpty ? "x" : String(characters)
    }

    /// FNV-1a, 64 bits, over the UTF-8 bytes: stable across processes and platforms, unlike `Hasher`.
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
