import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import SaveGames

// What the game gives a save file, and how a saved game comes back.

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
        var pushed = StateChanges()
        for change in saveMarks.pushed { pushed.add(change) }
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
