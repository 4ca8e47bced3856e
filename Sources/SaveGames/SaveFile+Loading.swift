import GameWorld
import LanguageModels
import ParleySQLite

extension SaveFile {
    /// Reads the game back over its content pack: the pack's initial state with the saved player, NPCs and items
    /// laid over it.
    ///
    /// Only what changes during a game is saved; descriptions, personas and rules come from `pack`. What the save
    /// refers to and the pack no longer has (an NPC, an item, a location) is left out and listed in
    /// ``LoadedGame/missing``; NPCs and locations the pack added since keep their initial state. Conversations are
    /// not read: read each with ``transcript(npc:)`` when it is needed.
    ///
    /// What is read is checked before it is used: SQLite's check of each table the state comes from, with its
    /// indexes (`PRAGMA quick_check(table)`: every page, key and cell of those tables, whose size grows with the
    /// world, not with the conversations), then every value's type and range.
    ///
    /// - Parameter pack: The content pack of the save's world.
    /// - Returns: The game, ready to continue.
    /// - Throws: ``SaveGameError``: ``SaveGameError/Code/noGame`` for a slot never saved,
    ///   ``SaveGameError/Code/worldMismatch`` for a pack of another world, ``SaveGameError/Code/corrupt`` for data
    ///   that does not decode, a missing player row, a value of the wrong type, or a number outside its range
    ///   (gold, quantities, counters, attitudes, beat counts, a pending offer's terms: see `docs/save-format.md`).
    public func load(pack: ContentPack) throws -> LoadedGame {
        let file = url
        let path = file.path
        let saved = try reading { db in
            try SaveInspector.checkTables(db, SaveInspector.stateTables, url: file)
            return try SavedRows(db, path: path)
        }
        try SaveRanges.check(saved, path: path)
        guard saved.metadata.worldID == pack.worldID else {
            throw SaveGameError(
                .worldMismatch, path: path,
                detail: "the save is of world \"\(saved.metadata.worldID)\", the content pack of \"\(pack.worldID)\"")
        }
        var overlay = StateOverlay(pack: pack)
        overlay.apply(saved)
        var offers: [NPCID: SavedOffer] = [:]
        for row in saved.offers {
            let offer: TradeOffer
            do {
                offer = try SaveCoding.decode(TradeOffer.self, from: row.json)
            } catch {
                throw SaveGameError(
                    .corrupt, path: path, detail: "the pending offer of \(row.npc) does not decode: \(error)",
                    underlyingError: error)
            }
            try SaveRanges.check(offer, npc: row.npc, path: path)
            if overlay.keepOffer(offer, npc: NPCID(row.npc)) {
                offers[NPCID(row.npc)] = SavedOffer(offer: offer, summary: row.summary)
            }
        }
        for (npc, count) in saved.conversations where pack.world.npcs.index(forKey: NPCID(npc)) == nil {
            overlay.missing.append(
                MissingContent(kind: .npc, id: npc, context: "a conversation of \(count) entries, kept in the save"))
        }
        return LoadedGame(
            metadata: saved.metadata, state: overlay.state, pendingOffers: offers,
            conversations: saved.conversations.map { NPCID($0.npc) }, missing: overlay.missing,
            contentChanged: saved.metadata.contentHash != pack.contentHash)
    }

    /// The NPCs with a saved conversation, and the number of entries of each.
    ///
    /// - Returns: Each NPC's entry count.
    /// - Throws: ``SaveGameError`` when the file cannot be read.
    public func conversationLengths() throws -> [NPCID: Int] {
        try reading { db in
            var lengths: [NPCID: Int] = [:]
            for row in try db.query("SELECT npc, entry_count FROM conversations") {
                lengths[NPCID(try row.get(0, as: String.self))] = try row.get(1, as: Int.self)
            }
            return lengths
        }
    }

    /// Reads one NPC's saved conversation: its transcript, rebuilt entry by entry from Apple-format JSON, and its
    /// annotations.
    ///
    /// This is how loading stays fast: a game reads a conversation when the player first talks to that NPC again,
    /// then resumes the session with `LanguageModelSession(model:tools:transcript:)`.
    ///
    /// The entries are checked as they are read: SQLite checks each page it reads, every position from 0 must be
    /// there, and each entry must decode.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: The conversation, or `nil` when the save has none for this NPC.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/corrupt`` when an entry is missing or does not
    ///   decode (the message names the file, the NPC and the position), or a page it is on is damaged.
    public func transcript(npc: NPCID) throws -> AnnotatedTranscript? {
        // Until the copy of the slot this save continues from is made, the conversation is the source's.
        if let copy = pendingCopy, let read = try copy.readSource({ try $0.transcript(npc: npc) }) { return read }
        let path = url.path
        let rows = try reading { db -> ConversationRows? in
            guard
                try db.scalar("SELECT 1 FROM conversations WHERE npc = ?", [npc.rawValue], as: Int.self) != nil
            else { return nil }
            var rows = ConversationRows()
            try db.forEachRow(
                "SELECT position, json FROM transcript_entries WHERE npc = ? ORDER BY position", [npc.rawValue]
            ) { row in
                rows.entries.append((try row.get(0), try row.get(1)))
            }
            for row in try db.query("SELECT key, value FROM conversation_annotations WHERE npc = ?", [npc.rawValue]) {
                rows.annotations[try row.get(0)] = try row.get(1)
            }
            for row in try db.query(
                "SELECT prompt_entry_id, key, value FROM turn_annotations WHERE npc = ?", [npc.rawValue])
            {
                rows.turnAnnotations[try row.get(0), default: [:]][try row.get(1)] = try row.get(2)
            }
            return rows
        }
        guard let rows else { return nil }
        var entries: [Transcript.Entry] = []
        entries.reserveCapacity(rows.entries.count)
        for (offset, (position, json)) in rows.entries.enumerated() {
            guard position == offset else {
                throw SaveGameError(
                    .corrupt, path: path, detail: "the conversation of \(npc) has no entry at position \(offset)")
            }
            do {
                entries.append(try Transcript.Entry(json: json))
            } catch {
                throw SaveGameError(
                    .corrupt, path: path,
                    detail: "entry \(position) of the conversation of \(npc) does not decode: \(error)",
                    underlyingError: error)
            }
        }
        return AnnotatedTranscript(
            transcript: Transcript(entries: entries), annotations: rows.annotations,
            turnAnnotations: rows.turnAnnotations)
    }

    /// The story as saved: flags, counters, attitudes, quest stages and beats fired, read without a content pack
    /// (for `parley saves show` and other tools; ``load(pack:)`` checks them against the pack).
    ///
    /// - Returns: The story state the save holds.
    /// - Throws: ``SaveGameError``: ``SaveGameError/Code/noGame`` for a slot never saved, or when the file cannot be
    ///   read.
    public func story() throws -> StoryState {
        let path = url.path
        let file = url
        return try reading { db in
            try SaveInspector.checkTables(
                db, ["metadata", "flags", "counters", "attitudes", "quests", "beats"], url: file)
            _ = try Self.readMetadata(db, path: path)
            return try StoryRows(db).state
        }
    }
}
