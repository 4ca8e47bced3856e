import Foundation
import GameWorld
import LanguageModels
import SaveGames

// What the game gives a save file, and how a saved game comes back.

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
struct SaveMarks {
    /// How many of the game's events the last save holds.
    var eventCount = 0
    /// The pending offers the last save holds.
    var offers: [NPCID: PendingOffer] = [:]
    /// The NPCs whose conversations grew since the last save.
    var changedConversations: Set<NPCID> = []
    /// The NPC the player was talking to at the last save.
    var partner: NPCID?
    /// What the game's own state, pushed in since the last save (`Game.apply(_:)` with a `StatePatch`), changed:
    /// pushed changes are not events, so the next autosave is told of them here.
    var pushed = StateChanges()
}

extension Game {
    /// A game continuing a save, as `parley play --continue` and the in-game `load` make it: the saved state and
    /// pending offers, and each NPC's conversation read from `file` when the player first talks to that NPC again.
    ///
    /// - Parameters:
    ///   - loaded: The save as ``SaveGames/SaveFile/load(pack:)`` read it.
    ///   - file: The open save the conversations are read from; it must stay open while the game plays.
    ///   - models: Makes each NPC's model.
    ///   - rules: The rules trades follow.
    ///   - options: How NPC replies are generated.
    public init(
        continuing loaded: LoadedGame, from file: SaveFile, models: @escaping ModelProvider,
        rules: TradeRules = .standard, options: GenerationOptions = GenerationOptions()
    ) {
        var restored = RestoredConversations(
            npcs: Set(loaded.conversations), pendingOffers: loaded.pendingOffers.mapValues(PendingOffer.init),
            load: { npc in try file.transcript(npc: npc) })
        restored.talkingTo = loaded.metadata.talkingTo
        self.init(state: loaded.state, models: models, rules: rules, options: options, restoring: restored)
    }

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

    /// What changed since the last save, for an autosave; `nil` when nothing did (unless `evenIfUnchanged`).
    ///
    /// The delta always says whom the player is talking to (`SaveDelta.talkingTo`), since the save writes it with
    /// every autosave: a host that must write (a report to keep) asks for a delta even when nothing changed, rather
    /// than making one that would forget the partner.
    ///
    /// - Parameters:
    ///   - playTime: The total play time now.
    ///   - evenIfUnchanged: Whether to return a delta when nothing changed (one that changes nothing).
    /// - Returns: The changed state, the conversations that grew, and the offers if they changed.
    public func saveDelta(playTime: Duration, evenIfUnchanged: Bool = false) -> SaveDelta? {
        let events = Array(shared.read(\.events).dropFirst(saveMarks.eventCount))
        let offers = pendingOffers
        let changed = saveMarks.changedConversations
        let pushed = saveMarks.pushed
        let unchanged =
            events.isEmpty && changed.isEmpty && offers == saveMarks.offers && partner == saveMarks.partner
            && pushed == StateChanges()
        guard !unchanged || evenIfUnchanged else { return nil }
        let conversations = Dictionary(
            uniqueKeysWithValues: changed.compactMap { npc in
                self.conversations[npc].map { (npc, $0.annotated(npcName: state.world.name(of: npc))) }
            })
        var delta = SaveDelta(
            state: state, events: events, conversations: conversations,
            pendingOffers: offers == saveMarks.offers ? nil : offers.mapValues(\.saved), playTime: playTime)
        delta.talkingTo = partner
        delta.playerChanged = delta.playerChanged || pushed.player
        delta.changedNPCs.formUnion(pushed.npcs)
        delta.changedFlags.formUnion(pushed.flags)
        delta.changedCounters.formUnion(pushed.counters)
        delta.changedAttitudes.formUnion(pushed.attitudes)
        delta.changedQuests.formUnion(pushed.quests)
        return delta
    }

    /// Everything, for a full save: the state, every conversation (saved ones not yet read are read now), the
    /// pending offers.
    ///
    /// - Parameters:
    ///   - label: The save's label.
    ///   - playTime: The total play time.
    /// - Returns: The snapshot.
    /// - Throws: When a saved conversation cannot be read.
    public func saveSnapshot(label: String, playTime: Duration) throws -> SaveSnapshot {
        let all = try allConversations()
        return SaveSnapshot(
            state: state, conversations: all, pendingOffers: pendingOffers.mapValues(\.saved), playTime: playTime,
            label: label, talkingTo: partner)
    }

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

extension PendingOffer {
    /// The offer as a save file keeps it.
    var saved: SavedOffer { SavedOffer(offer: offer, summary: summary) }

    /// An offer from a save file.
    ///
    /// - Parameter saved: The saved offer.
    public init(_ saved: SavedOffer) {
        self.init(offer: saved.offer, summary: saved.summary)
    }
}
