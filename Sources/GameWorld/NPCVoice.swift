/// How a language-model server voices an NPC (`"voice"` in `npcs/<id>.json`); the scripted model, which says its
/// authored lines, ignores it.
///
/// ```json
/// "voice": { "sentences": 1 }
/// ```
public struct NPCVoice: Hashable, Sendable, Codable {
    /// The most sentences a reply may have (`sentences`, 1 to `maximumSentences`), or `nil` for the game's default
    /// (3, `VoicedModel.defaultSentenceBudget`). A terse guard says one; a storyteller four. A planned line longer
    /// than this (a list of wares) keeps its length when it is voiced.
    public var sentences: Int?

    /// The most `sentences` may be: 6.
    public static let maximumSentences = 6

    /// The voice of an NPC that sets nothing: the game's defaults.
    public static let `default` = NPCVoice()

    /// Creates a voice.
    ///
    /// - Parameter sentences: The most sentences of a reply, or `nil` for the game's default.
    public init(sentences: Int? = nil) {
        self.sentences = sentences
    }
}
