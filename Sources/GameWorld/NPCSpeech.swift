/// How an NPC sounds when its lines are spoken aloud (`"speech"` in `npcs/<id>.json`): an espeak-ng voice with its
/// pitch, rate and variant. Speech modules (`ParleySpeech`) turn it into their own voice; the world model only keeps it.
///
/// ```json
/// "speech": { "voice": "en-gb", "pitch": 40, "rate": 160, "variant": "f3" }
/// ```
///
/// An NPC without a `speech` block still has a voice: `NPCSpeech.default(for:)`, derived from its id, so that two NPCs
/// of a pack rarely sound alike and one NPC always sounds the same.
public struct NPCSpeech: Hashable, Sendable, Codable {
    /// The voice's name, as espeak-ng knows it (`en-gb`, `en-us`, `de`), or `nil` for the pack's language.
    public var voice: String?
    /// The base pitch, `pitchRange` (0 to 99), or `nil` for the voice's own (50).
    public var pitch: Int?
    /// The speaking rate in words per minute, `rateRange` (80 to 450), or `nil` for the voice's own (175).
    public var rate: Int?
    /// A voice variant of espeak-ng (`f3`, `m2`, `klatt`), or `nil` for none.
    public var variant: String?

    /// The pitches a pack may set: 0 to 99.
    public static let pitchRange = 0...99
    /// The rates a pack may set, in words per minute: 80 to 450 (espeak-ng's own limits).
    public static let rateRange = 80...450

    /// The variants `default(for:)` picks from: espeak-ng's female and male variants.
    public static let defaultVariants = ["m1", "m2", "m3", "m4", "m5", "m6", "m7", "f1", "f2", "f3", "f4", "f5"]

    /// Creates a speech block.
    ///
    /// - Parameters:
    ///   - voice: The voice's name, or `nil` for the pack's language.
    ///   - pitch: The base pitch, 0 to 99, or `nil` for the voice's own.
    ///   - rate: Words per minute, 80 to 450, or `nil` for the voice's own.
    ///   - variant: An espeak-ng variant, or `nil` for none.
    public init(voice: String? = nil, pitch: Int? = nil, rate: Int? = nil, variant: String? = nil) {
        self.voice = voice
        self.pitch = pitch
        self.rate = rate
        self.variant = variant
    }

    /// The voice of an NPC whose file has no `speech` block: a variant from `defaultVariants` and a pitch from 30 to
    /// 69, both picked by a hash of the id (FNV-1a, the same in every run and on every machine), the voice and rate
    /// left to the pack's language and espeak-ng.
    ///
    /// - Parameter id: The NPC's id.
    /// - Returns: The same speech for the same id, every time.
    public static func `default`(for id: NPCID) -> NPCSpeech {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.rawValue.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let variant = defaultVariants[Int(hash % UInt64(defaultVariants.count))]
        let pitch = 30 + Int((hash / UInt64(defaultVariants.count)) % 40)
        return NPCSpeech(pitch: pitch, variant: variant)
    }
}
