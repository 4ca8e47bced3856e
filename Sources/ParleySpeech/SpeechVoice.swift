import GameWorld

/// A voice to speak with: an espeak-ng voice name, its pitch, rate and variant.
///
/// ```swift
/// let voice = SpeechVoice(voice: "en-gb", pitch: 40, rate: 160, variant: "f3")
/// ```
public struct SpeechVoice: Hashable, Sendable, Codable {
    /// The voice's name as espeak-ng knows it: `en-gb`, `en-us`, `de`.
    public var voice: String
    /// The base pitch, 0 to 99 (espeak-ng's own is 50).
    public var pitch: Int
    /// The speaking rate in words per minute, 80 to 450 (espeak-ng's own is 175).
    public var rate: Int
    /// An espeak-ng variant (`f3`, `m2`), or `nil` for the voice as it is.
    public var variant: String?

    /// The voice used when nothing is said: `en`, pitch 50, 175 words per minute, no variant.
    public static let `default` = SpeechVoice()

    /// The pitches a voice may have: 0 to 99.
    public static let pitchRange = NPCSpeech.pitchRange
    /// The rates a voice may have, in words per minute: 80 to 450.
    public static let rateRange = NPCSpeech.rateRange

    /// Creates a voice; a pitch or rate outside its range is clamped into it.
    ///
    /// - Parameters:
    ///   - voice: The espeak-ng voice name.
    ///   - pitch: The base pitch, 0 to 99.
    ///   - rate: Words per minute, 80 to 450.
    ///   - variant: An espeak-ng variant, or `nil`.
    public init(voice: String = "en", pitch: Int = 50, rate: Int = 175, variant: String? = nil) {
        self.voice = voice
        self.pitch = min(max(pitch, Self.pitchRange.lowerBound), Self.pitchRange.upperBound)
        self.rate = min(max(rate, Self.rateRange.lowerBound), Self.rateRange.upperBound)
        self.variant = variant
    }

    /// The voice of an NPC's `speech` block; what the block leaves out comes from `fallbackVoice` and the defaults.
    ///
    /// - Parameters:
    ///   - speech: The NPC's speech (`NPC.speechOrDefault`).
    ///   - fallbackVoice: The voice name when the block has none: the pack's language, for example `en` or `de`.
    public init(_ speech: NPCSpeech, fallbackVoice: String = "en") {
        self.init(
            voice: speech.voice ?? fallbackVoice, pitch: speech.pitch ?? 50, rate: speech.rate ?? 175,
            variant: speech.variant)
    }

    /// The name espeak-ng's `espeak_SetVoiceByName` takes: the voice, then `+` and the variant if there is one.
    public var espeakName: String {
        variant.map { "\(voice)+\($0)" } ?? voice
    }
}

extension SpeechVoice {
    /// The voice of an NPC of a world: its `speech` block (`NPC.speechOrDefault`), the voice it leaves out being the
    /// NPC's language, the first part of its language tag (`en` of `en-GB`).
    ///
    /// - Parameters:
    ///   - npc: The NPC.
    ///   - world: Its world, for its language (the NPC's, else the pack's).
    public init(of npc: NPC, in world: World) {
        let tag = world.lexicon(for: npc.id).language.lowercased()
        self.init(npc.speechOrDefault, fallbackVoice: String(tag.split(separator: "-").first ?? "en"))
    }
}
