import GameWorld
import LanguageModels

extension SaveFile {
    /// Writes everything, replacing what the save held: a manual save, or the first save of a new game.
    ///
    /// The state (with the story's flags, counters, attitudes, quests and beats), every conversation in the snapshot
    /// (conversations not in it are removed), the pending offers, the snapshot's feedback attachments and recordings
    /// and the metadata are written in one transaction. Feedback attachments and recordings already in the save are
    /// kept.
    ///
    /// - Parameter snapshot: The game to save.
    /// - Returns: What the write did.
    /// - Throws: ``SaveGameError``, for example ``SaveGameError/Code/diskFull`` or
    ///   ``SaveGameError/Code/readOnly``; the previous save is then unchanged.
    @discardableResult
    public func writeFull(_ snapshot: SaveSnapshot) throws -> SaveWriteSummary {
        try writing(fullWrite(of: snapshot))
    }

    /// Writes everything as ``writeFull(_:)`` does, on the save's own thread (``DatabaseQueue/asyncWrite(_:)``): the
    /// calling task is suspended meanwhile and holds none of the cooperative pool's threads while the disk syncs.
    ///
    /// - Parameter snapshot: The game to save.
    /// - Returns: What the write did.
    /// - Throws: What ``writeFull(_:)`` throws; the previous save is then unchanged.
    @discardableResult
    public func asyncWriteFull(_ snapshot: SaveSnapshot) async throws -> SaveWriteSummary {
        try await asyncWriting(fullWrite(of: snapshot))
    }

    /// The rows of a full save of `snapshot`, for one write transaction.
    private func fullWrite(of snapshot: SaveSnapshot) -> @Sendable (inout SaveWriter) throws -> Void {
        let savedAt = SaveCoding.text(now())
        let requestedName = requestedName
        return { writer in
            for table in [
                "player_items", "player", "npc_items", "npcs", "location_items", "locations", "transcript_entries",
                "conversation_annotations", "turn_annotations", "conversations", "pending_offers", "flags", "counters",
                "attitudes", "quests", "beats", "dealings",
            ] {
                try writer.write("DELETE FROM \(table)")
            }
            let world = snapshot.state.world
            try writer.savePlayer(snapshot.state.player)
            for id in world.npcs.keys.sorted() {
                try writer.saveNPC(id, in: world)
            }
            for id in world.locations.keys.sorted() {
                try writer.saveLocation(id, in: world)
            }
            try writer.insertStory(snapshot.state.story)
            for (npc, conversation) in snapshot.conversations.sorted(by: { $0.key < $1.key }) {
                try writer.insertConversation(npc, conversation)
            }
            try writer.savePendingOffers(snapshot.pendingOffers)
            try writer.insertAttachments(snapshot.feedback, into: .feedback)
            try writer.insertAttachments(snapshot.recordings, into: .recordings)
            try writer.setMetadata(.createdAt, savedAt, onlyIfMissing: true)
            try writer.setMetadata(.slotName, requestedName, onlyIfMissing: true)
            try writer.setMetadata(.updatedAt, savedAt)
            try writer.setMetadata(.parleyVersion, snapshot.parleyVersion)
            try writer.setMetadata(.playTime, SaveCoding.text(snapshot.playTime))
            try writer.setMetadata(.label, snapshot.label)
            try writer.setMetadata(.worldID, world.id)
            try writer.setMetadata(.worldTitle, world.title)
            try writer.setMetadata(.contentHash, world.contentHash.hex)
            try Self.savePlayerMetadata(snapshot.state, &writer)
            try writer.setMetadata(.talkingTo, snapshot.talkingTo?.rawValue ?? "")
        }
    }

    /// Writes what changed since the last save, in one transaction whose cost depends only on the change.
    ///
    /// It writes the player if ``SaveDelta/playerChanged``, each NPC in ``SaveDelta/changedNPCs``, each location in
    /// ``SaveDelta/changedLocations`` and each flag, counter, attitude, quest and NPC's beats the delta names (only
    /// the rows that differ from the save), the entries of each conversation in
    /// ``SaveDelta/conversations`` after those the save holds (with the annotations of the new turns, and the
    /// conversation's annotations where they changed), the pending offers if given, the play time and the time of
    /// the save. Nothing it does reads or writes the rest of the world or other NPCs' conversations.
    ///
    /// A conversation that does not continue the saved one (fewer entries than saved, or another entry at the last
    /// saved position: the transcript was trimmed or edited) is rewritten in full rather than corrupted, and listed
    /// in ``SaveWriteSummary/rewrittenConversations``. The delta's feedback attachments and recordings are added in
    /// the same transaction: they are saved exactly when the turns they belong to are.
    ///
    /// - Parameter delta: What changed.
    /// - Returns: What the write did.
    /// - Throws: ``SaveGameError``: ``SaveGameError/Code/noGame`` before the first ``writeFull(_:)``,
    ///   ``SaveGameError/Code/worldMismatch`` for a state of another world, ``SaveGameError/Code/diskFull``,
    ///   ``SaveGameError/Code/readOnly`` and the like; the previous save is then unchanged.
    @discardableResult
    public func autosave(_ delta: SaveDelta) throws -> SaveWriteSummary {
        try writing(deltaWrite(of: delta))
    }

    /// Writes what changed as ``autosave(_:)`` does, on the save's own thread (``DatabaseQueue/asyncWrite(_:)``): the
    /// calling task is suspended meanwhile and holds none of the cooperative pool's threads while the disk syncs, so
    /// the autosaves of many games at once neither wait for one another's thread nor stop the other games' turns.
    ///
    /// - Parameter delta: What changed.
    /// - Returns: What the write did.
    /// - Throws: What ``autosave(_:)`` throws; the previous save is then unchanged.
    @discardableResult
    public func asyncAutosave(_ delta: SaveDelta) async throws -> SaveWriteSummary {
        try await asyncWriting(deltaWrite(of: delta))
    }

    /// The rows an autosave of `delta` writes, for one write transaction.
    private func deltaWrite(of delta: SaveDelta) -> @Sendable (inout SaveWriter) throws -> Void {
        let savedAt = SaveCoding.text(now())
        let path = url.path
        return { writer in
            let savedWorld = try writer.read("SELECT value FROM metadata WHERE key = ?", [MetadataKey.worldID.rawValue])
            guard let savedWorldID = try savedWorld.first?.get(0, as: String.self) else {
                throw SaveGameError(.noGame, path: path, detail: "an autosave needs a full save first")
            }
            let world = delta.state.world
            guard savedWorldID == world.id else {
                throw SaveGameError(
                    .worldMismatch, path: path,
                    detail: "the save is of world \"\(savedWorldID)\", the autosave's state of \"\(world.id)\"")
            }
            if delta.playerChanged {
                try writer.savePlayer(delta.state.player)
                try Self.savePlayerMetadata(delta.state, &writer)
            }
            for id in delta.changedNPCs.sorted() {
                try writer.saveNPC(id, in: world)
            }
            for id in delta.changedLocations.sorted() {
                try writer.saveLocation(id, in: world)
            }
            try writer.saveStory(
                delta.state.story, flags: delta.changedFlags, counters: delta.changedCounters,
                attitudes: delta.changedAttitudes, quests: delta.changedQuests, beats: delta.changedBeats,
                dealings: delta.changedDealings)
            for (npc, conversation) in delta.conversations.sorted(by: { $0.key < $1.key }) {
                try writer.appendConversation(npc, conversation)
            }
            if let offers = delta.pendingOffers {
                try writer.savePendingOffers(offers)
            }
            try writer.insertAttachments(delta.feedback, into: .feedback)
            try writer.insertAttachments(delta.recordings, into: .recordings)
            try writer.setMetadata(.updatedAt, savedAt)
            try writer.setMetadata(.playTime, SaveCoding.text(delta.playTime))
            try writer.setMetadata(.parleyVersion, delta.parleyVersion)
            if let label = delta.label {
                try writer.setMetadata(.label, label)
            }
            try writer.setMetadata(.talkingTo, delta.talkingTo?.rawValue ?? "")
        }
    }

    private static func savePlayerMetadata(_ state: GameState, _ writer: inout SaveWriter) throws {
        try writer.setMetadata(.playerName, state.player.name)
        try writer.setMetadata(.locationName, state.world.name(of: state.player.location))
    }
}
