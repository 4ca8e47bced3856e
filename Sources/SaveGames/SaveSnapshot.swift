import GameWorld
import LanguageModels

/// Everything a full save writes: the game state, every NPC's conversation and the pending offers.
///
/// Pass it to ``SaveFile/writeFull(_:)`` for a manual save, or for the first save of a new game. The world's static
/// content (descriptions, personas, rules) is not saved: it comes from the content pack when the game is loaded.
///
/// ```swift
/// let snapshot = SaveSnapshot(
///     state: await game.state, conversations: await game.annotatedTranscripts,
///     pendingOffers: pending, playTime: .seconds(754), label: "Before the duel")
/// try save.writeFull(snapshot)
/// ```
public struct SaveSnapshot: Sendable {
    /// The world and the player now.
    public var state: GameState
    /// Every NPC's conversation, by NPC; NPCs left out have no conversation in the save afterwards.
    public var conversations: [NPCID: AnnotatedTranscript]
    /// The offers waiting for the player's answer, by NPC.
    public var pendingOffers: [NPCID: SavedOffer]
    /// The total play time.
    public var playTime: Duration
    /// The save's label, shown in listings; may be empty.
    public var label: String
    /// The Parley version writing the save.
    public var parleyVersion: String
    /// The NPC the player is talking to, if any.
    public var talkingTo: NPCID?
    /// Feedback attachments to add in the same transaction (those the save holds are kept either way).
    public var feedback: [SavedAttachment] = []
    /// Turn recordings to add in the same transaction (those the save holds are kept either way).
    public var recordings: [SavedAttachment] = []

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - state: The world and the player now.
    ///   - conversations: Every NPC's conversation.
    ///   - pendingOffers: The offers waiting for an answer.
    ///   - playTime: The total play time.
    ///   - label: The save's label.
    ///   - parleyVersion: The Parley version writing the save; this build's by default.
    ///   - talkingTo: The NPC the player is talking to, if any.
    public init(
        state: GameState, conversations: [NPCID: AnnotatedTranscript] = [:], pendingOffers: [NPCID: SavedOffer] = [:],
        playTime: Duration = .zero, label: String = "", parleyVersion: String = ParleyVersion.current,
        talkingTo: NPCID? = nil
    ) {
        self.state = state
        self.conversations = conversations
        self.pendingOffers = pendingOffers
        self.playTime = playTime
        self.label = label
        self.parleyVersion = parleyVersion
        self.talkingTo = talkingTo
    }
}
