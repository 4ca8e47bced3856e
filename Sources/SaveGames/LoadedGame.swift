import GameWorld

/// A game read back from a save, ready to continue: the state rebuilt over the content pack, and what could not be.
///
/// Conversations are not read here: ``conversations`` lists the NPCs that have one, and
/// ``SaveFile/transcript(npc:)`` reads one when the player first talks to that NPC again.
public struct LoadedGame: Sendable {
    /// The save's metadata.
    public var metadata: SaveMetadata
    /// The world and the player: the pack's initial state with the saved positions, gold and items laid over it.
    public var state: GameState
    /// The offers waiting for the player's answer, by NPC.
    public var pendingOffers: [NPCID: SavedOffer]
    /// The NPCs with a saved conversation, sorted (including any the pack no longer has).
    public var conversations: [NPCID]
    /// What the save refers to that the pack no longer has; left out of ``state``.
    public var missing: [MissingContent]
    /// Whether the pack's fingerprint differs from the one the save was written with.
    public var contentChanged: Bool

    /// Creates a loaded game.
    ///
    /// - Parameters:
    ///   - metadata: The save's metadata.
    ///   - state: The rebuilt state.
    ///   - pendingOffers: The pending offers.
    ///   - conversations: The NPCs with a saved conversation.
    ///   - missing: What the pack no longer has.
    ///   - contentChanged: Whether the pack changed since the save.
    public init(
        metadata: SaveMetadata, state: GameState, pendingOffers: [NPCID: SavedOffer], conversations: [NPCID],
        missing: [MissingContent], contentChanged: Bool
    ) {
        self.metadata = metadata
        self.state = state
        self.pendingOffers = pendingOffers
        self.conversations = conversations
        self.missing = missing
        self.contentChanged = contentChanged
    }
}
