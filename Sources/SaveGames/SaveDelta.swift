import GameWorld
import LanguageModels

/// What changed since the last save, for an autosave: ``SaveFile/autosave(_:)`` writes only this.
///
/// The delta carries the whole current state, but only the parts it names are written: the player if
/// ``playerChanged``, the NPCs in ``changedNPCs``, the locations in ``changedLocations``, the story's flags, counters,
/// attitudes, quests and beats in ``changedFlags`` and the like, and the new entries of the conversations in
/// ``conversations``. Build it from the events applied since the last save with
/// ``init(state:events:conversations:pendingOffers:playTime:label:)``:
///
/// ```swift
/// let delta = SaveDelta(
///     state: await game.state, events: eventsSinceLastSave,
///     conversations: [npc: transcriptOfThatNPC], playTime: playTime)
/// try save.autosave(delta)
/// ```
///
/// Conversations are passed whole (an `AnnotatedTranscript` is a value: passing it copies nothing). The save
/// compares each with what it holds and appends only the entries after the saved ones; see
/// ``SaveFile/autosave(_:)`` for what happens when a conversation does not continue the saved one.
public struct SaveDelta: Sendable {
    /// The world and the player now.
    public var state: GameState
    /// Whether the player (name, location, gold or inventory) changed.
    public var playerChanged: Bool
    /// The NPCs whose location, gold or inventory changed.
    public var changedNPCs: Set<NPCID>
    /// The locations whose items changed.
    public var changedLocations: Set<LocationID>
    /// The flags set or cleared.
    public var changedFlags: Set<String>
    /// The counters that changed.
    public var changedCounters: Set<String>
    /// The NPCs whose attitude toward the player changed.
    public var changedAttitudes: Set<NPCID>
    /// The quests that moved on.
    public var changedQuests: Set<QuestID>
    /// The NPCs whose beats fired.
    public var changedBeats: Set<NPCID>
    /// The NPCs whose dealings with the player grew (a trade or a gift): the save appends the new ones.
    public var changedDealings: Set<NPCID> = []
    /// The conversations that changed, whole, by NPC: the save appends the entries it does not have yet, and
    /// the new turns' annotations (those keyed by the id of a prompt among the new entries; annotations added
    /// later to a turn already saved are written by the next full save).
    public var conversations: [NPCID: AnnotatedTranscript]
    /// Every offer waiting for an answer now, or `nil` when they did not change. The save writes the difference
    /// with the offers it holds.
    public var pendingOffers: [NPCID: SavedOffer]?
    /// The total play time now.
    public var playTime: Duration
    /// A new label for the save, or `nil` to keep its label.
    public var label: String?
    /// The Parley version writing the save.
    public var parleyVersion: String
    /// The NPC the player is talking to now, if any. Every autosave writes it (one metadata row, when it changed), so
    /// a delta that leaves it `nil` records that the player talks to no one.
    public var talkingTo: NPCID? = nil
    /// The feedback attachments made since the last save, written in the same transaction as the rest, so that a
    /// report is saved exactly when the turn it belongs to is.
    public var feedback: [SavedAttachment] = []
    /// The turn recordings made since the last save, written in the same transaction as the turns they record.
    public var recordings: [SavedAttachment] = []

    /// Creates a delta from the parts that changed.
    ///
    /// - Parameters:
    ///   - state: The world and the player now.
    ///   - playerChanged: Whether the player changed.
    ///   - changedNPCs: The NPCs that changed.
    ///   - changedLocations: The locations whose items changed.
    ///   - changedFlags: The flags set or cleared.
    ///   - changedCounters: The counters that changed.
    ///   - changedAttitudes: The NPCs whose attitude changed.
    ///   - changedQuests: The quests that moved on.
    ///   - changedBeats: The NPCs whose beats fired.
    ///   - conversations: The conversations that changed, whole.
    ///   - pendingOffers: Every pending offer now, or `nil` when they did not change.
    ///   - playTime: The total play time now.
    ///   - label: A new label, or `nil` to keep the label.
    ///   - parleyVersion: The Parley version writing the save; this build's by default.
    public init(
        state: GameState, playerChanged: Bool = false, changedNPCs: Set<NPCID> = [],
        changedLocations: Set<LocationID> = [], changedFlags: Set<String> = [], changedCounters: Set<String> = [],
        changedAttitudes: Set<NPCID> = [], changedQuests: Set<QuestID> = [], changedBeats: Set<NPCID> = [],
        conversations: [NPCID: AnnotatedTranscript] = [:], pendingOffers: [NPCID: SavedOffer]? = nil,
        playTime: Duration, label: String? = nil, parleyVersion: String = ParleyVersion.current
    ) {
        self.state = state
        self.playerChanged = playerChanged
        self.changedNPCs = changedNPCs
        self.changedLocations = changedLocations
        self.changedFlags = changedFlags
        self.changedCounters = changedCounters
        self.changedAttitudes = changedAttitudes
        self.changedQuests = changedQuests
        self.changedBeats = changedBeats
        self.conversations = conversations
        self.pendingOffers = pendingOffers
        self.playTime = playTime
        self.label = label
        self.parleyVersion = parleyVersion
    }

    /// Creates a delta from the events applied since the last save: each event names what it changed (see
    /// ``StateChanges/init(events:)``).
    ///
    /// - Parameters:
    ///   - state: The world and the player now, after the events.
    ///   - events: The events applied since the last save, in any order.
    ///   - conversations: The conversations that changed, whole.
    ///   - pendingOffers: Every pending offer now, or `nil` when they did not change.
    ///   - playTime: The total play time now.
    ///   - label: A new label, or `nil` to keep the label.
    ///   - parleyVersion: The Parley version writing the save; this build's by default.
    public init(
        state: GameState, events: some Sequence<GameEvent>, conversations: [NPCID: AnnotatedTranscript] = [:],
        pendingOffers: [NPCID: SavedOffer]? = nil, playTime: Duration, label: String? = nil,
        parleyVersion: String = ParleyVersion.current
    ) {
        let changes = StateChanges(events: events)
        self.init(
            state: state, playerChanged: changes.player, changedNPCs: changes.npcs,
            changedLocations: changes.locations, changedFlags: changes.flags, changedCounters: changes.counters,
            changedAttitudes: changes.attitudes, changedQuests: changes.quests, changedBeats: changes.beats,
            conversations: conversations, pendingOffers: pendingOffers, playTime: playTime, label: label,
            parleyVersion: parleyVersion)
        changedDealings = changes.dealings
    }
}
