import GameWorld
import LanguageModels
import ParleyEngine

/// How a language-model server plays the NPCs (`ModelChoice.makeProvider(voice:)`): the voicing mode, the
/// first-words deadline, the planner's seed and the sentence budget. See `VoicedModel`.
public struct VoiceSettings: Sendable, Equatable {
    /// `grounded` (the default) or `free`.
    public var mode: VoiceMode
    /// How long the player waits for the first words before the planned line answers (2 s by default).
    public var firstWordsDeadline: Duration
    /// The seed of the scripted model that plans (1 by default, as `--seed`).
    public var plannerSeed: UInt64
    /// The most sentences of a reply of an NPC whose file sets none (3 by default; see `sentenceBudget(of:)`).
    public var sentenceBudget: Int

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - mode: The voicing mode.
    ///   - firstWordsDeadline: The first-words deadline.
    ///   - plannerSeed: The planner's seed.
    ///   - sentenceBudget: The most sentences of a reply.
    public init(
        mode: VoiceMode = .grounded, firstWordsDeadline: Duration = VoicedModel.defaultFirstWordsDeadline,
        plannerSeed: UInt64 = 1, sentenceBudget: Int = VoicedModel.defaultSentenceBudget
    ) {
        self.mode = mode
        self.firstWordsDeadline = firstWordsDeadline
        self.plannerSeed = plannerSeed
        self.sentenceBudget = sentenceBudget
    }

    /// The most sentences of an NPC's reply: its own budget (`"voice": {"sentences": N}` in its file), or
    /// `sentenceBudget` when it sets none.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: The budget, at least 1.
    public func sentenceBudget(of npc: NPC) -> Int {
        max(npc.voice.sentences ?? sentenceBudget, 1)
    }
}
