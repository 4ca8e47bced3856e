import GameWorld
import LanguageModels

// What a game keeps for whoever saves it: the restored conversations it continues, and what changed since it was
// last marked saved (the host that writes saves is ParleyHost).

/// What a game restored from a save needs: the saved offers, and where each NPC's conversation is, read only when
/// the player first talks to that NPC again.
public struct RestoredConversations: Sendable {
    /// The NPCs that have a saved conversation.
    public var npcs: Set<NPCID>
    /// Reads one NPC's saved conversation.
    public var load: @Sendable (NPCID) throws -> AnnotatedTranscript?
    /// The offers that were waiting for an answer.
    public var pendingOffers: [NPCID: PendingOffer]
    /// The NPC the player was talking to, if any: the restored game goes on talking to them.
    public var talkingTo: NPCID?

    /// Creates the restore information.
    ///
    /// - Parameters:
    ///   - npcs: The NPCs with a saved conversation.
    ///   - pendingOffers: The saved pending offers.
    ///   - load: Reads one NPC's conversation.
    public init(
        npcs: Set<NPCID>, pendingOffers: [NPCID: PendingOffer],
        load: @escaping @Sendable (NPCID) throws -> AnnotatedTranscript?
    ) {
        self.npcs = npcs
        self.pendingOffers = pendingOffers
        self.load = load
    }
}

/// What the last save of a game holds, and which conversations grew since: what the next autosave writes.
package struct SaveMarks {
    /// How many of the game's events the last save holds.
    package var eventCount = 0
    /// The pending offers the last save holds.
    package var offers: [NPCID: PendingOffer] = [:]
    /// The NPCs whose conversations grew since the last save.
    package var changedConversations: Set<NPCID> = []
    /// The NPC the player was talking to at the last save.
    package var partner: NPCID?
    /// What the game's own state, pushed in since the last save (`Game.apply(_:)` with a `StatePatch`), changed:
    /// pushed changes are not events, so the next autosave is told of them here.
    package var pushed: [StateChange] = []
}

extension Game {
    /// The NPCs the player has talked to in this game (their conversations are open), sorted.
    package var conversationNPCs: [NPCID] { conversations.keys.sorted() }

    /// How many times an NPC's working transcript was trimmed to fit its model's context window.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: The trims; 0 for an NPC the player has not talked to.
    package func trims(of npc: NPCID) -> Int { conversations[npc]?.trims ?? 0 }

    /// Whether the player gave a name in any of the open conversations ("my name is Wren").
    package var anyPlayerCalled: Bool {
        conversations.keys.contains { conversationFacts(of: $0, saying: nil).playerCalled != nil }
    }

    /// Everything said with an NPC in this game, or an empty transcript.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: The conversation's whole history (the working transcript may be a trimmed version of it).
    package func history(of npc: NPCID) -> Transcript { conversations[npc]?.history ?? Transcript() }

    /// Every conversation of this game, those read from its save on first contact and those not read yet.
    ///
    /// - Returns: Each NPC's annotated transcript, whole.
    /// - Throws: When a saved conversation cannot be read.
    public func allConversations() throws -> [NPCID: AnnotatedTranscript] {
        var all = annotatedTranscripts
        if let restored {
            for npc in restored.npcs where all[npc] == nil {
                if let transcript = try restored.load(npc) { all[npc] = transcript }
            }
        }
        return all
    }

    /// Marks everything as saved, after a successful save.
    public func markSaved() {
        saveMarks = SaveMarks(eventCount: shared.read(\.events.count), offers: pendingOffers, partner: partner)
    }
}

