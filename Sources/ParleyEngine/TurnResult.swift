import GameWorld
import LanguageModels

/// What one NPC turn produced, as a value: the turn runner makes it without changing the game, and `Game` applies
/// it in one place (the conversation's history and annotations, the recording, the feedback reports, the rules'
/// effects). A host then saves all of it with the turn, in one transaction.
///
/// A failed turn is a value too: no entries, no effects, a recording with its failure, and the feedback about any
/// offer the guard refused on the way.
public struct TurnResult: Sendable {
    /// How long the turn took.
    public struct Timing: Sendable, Equatable {
        /// From the prompt to the first words of the answer; `nil` when none came (a failed turn, an authored line).
        public var firstWords: Duration?
        /// The whole turn: every attempt, trim and model call.
        public var total: Duration
    }

    /// The NPC spoken to.
    public var npc: NPCID
    /// The entries the turn added to the NPC's conversation, its prompt first; empty when it failed.
    public var entries: [Transcript.Entry]
    /// The game context when the turn was spoken (player, gold, inventory, location), kept for its prompt entry.
    public var annotations: [String: String]
    /// The effects the turn's answering dialogue rules ask for (see `AnsweringRule`); empty when it failed, and when
    /// it answered a spoken line heard below its acting bar (`HeardSpeech.mayAct`), which changes nothing.
    public var effects: [Effect]
    /// The game events the NPC's tools applied during the turn, in order: the gifts it accepted (`gave`, from
    /// `acceptGift`) and made (`received`, from `giveItem`). Applying the result fires the beats they call for: a gift
    /// accepted fires the NPC's `itemGiven` beat, as the `give` command does.
    public var events: [GameEvent] = []
    /// The offers the trade guard refused during the turn, and those refused because the line was heard too unsurely
    /// to act on (`RefusedOffer.unclearSpeech`).
    public var refusals: [RefusedOffer]
    /// A feedback report for each refused offer (but those refused for a line heard too unsurely).
    public var feedback: [FeedbackReport]
    /// The turn as recorded for replays.
    public var recording: TurnRecording
    /// What the player is told when the turn failed (nothing was changed and the words can be said again); `nil`
    /// when it succeeded.
    public var failure: String?
    /// How long it took.
    public var timing: Timing
    /// The false statements the claim check found in the answer (`ClaimChecker`); empty for none.
    public var falseClaims: [FalseClaim] = []

    /// Whether the turn succeeded but the NPC said nothing: its answer has no words (no response entry, or one whose
    /// text is only whitespace). An NPC is never silent, so the turn files a feedback report (kind `emptyReply`)
    /// with itself, and the player is told.
    public var isSilent: Bool {
        guard failure == nil else { return false }
        guard case .response(let response)? = entries.last(where: { if case .response = $0 { true } else { false } })
        else { return true }
        return response.segments.map(\.description).joined().allSatisfy(\.isWhitespace)
    }
}
