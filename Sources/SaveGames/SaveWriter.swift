import GameWorld
import LanguageModels
import ParleyJSON
import ParleySQLite

/// The rows of one write transaction: prepares each statement once per transaction, counts statements and rows
/// written, and knows how each table is written.
///
/// It lives only inside ``SaveFile/writing(_:)``'s transaction, like the connection it holds.
struct SaveWriter {
    let db: Database
    private(set) var summary = SaveWriteSummary()
    private var prepared: [String: Statement] = [:]

    init(db: Database) {
        self.db = db
    }

    // MARK: - Statements

    /// Runs a statement that changes rows, counting it and the rows it changed.
    mutating func write(_ sql: String, _ arguments: StatementArguments = []) throws {
        let statement = try statement(sql)
        try statement.bind(arguments)
        while try statement.step() {}
        statement.reset()
        summary.statements += 1
        summary.rowsWritten += db.changes
    }

    /// Runs a query, counting it.
    mutating func read(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        let statement = try statement(sql)
        try statement.bind(arguments)
        var rows: [Row] = []
        while try statement.step() { rows.append(statement.row()) }
        statement.reset()
        summary.statements += 1
        return rows
    }

    private mutating func statement(_ sql: String) throws -> Statement {
        if let statement = prepared[sql] { return statement }
        let statement = try db.prepare(sql)
        prepared[sql] = statement
        return statement
    }

    // MARK: - Metadata

    /// Sets a metadata value; unchanged values are not rewritten.
    mutating func setMetadata(_ key: MetadataKey, _ value: String, onlyIfMissing: Bool = false) throws {
        if onlyIfMissing {
            try write(
                "INSERT INTO metadata(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING", [key.rawValue, value])
        } else {
            try write(
                """
                INSERT INTO metadata(key, value) VALUES (?, ?)
                ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value
                """, [key.rawValue, value])
        }
    }

    // MARK: - State

    /// Writes the player row and the player's items, changing only what differs from the stored rows.
    mutating func savePlayer(_ player: Player) throws {
        try write(
            """
            INSERT INTO player(id, name, location, gold) VALUES (1, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, location = excluded.location, gold = excluded.gold
            WHERE (name, location, gold) != (excluded.name, excluded.location, excluded.gold)
            """, [player.name, player.location.rawValue, player.gold])
        let stored = try read("SELECT item, quantity FROM player_items")
        try saveItems(
            player.inventory, stored: stored, insert: "INSERT INTO player_items(item, quantity) VALUES (?, ?)",
            update: "UPDATE player_items SET quantity = ? WHERE item = ?",
            delete: "DELETE FROM player_items WHERE item = ?", owner: nil)
    }

    /// Writes an NPC's row and items, changing only what differs; removes them when the state has no such NPC.
    mutating func saveNPC(_ id: NPCID, in world: World) throws {
        guard let npc = world.npcs[id] else {
            try write("DELETE FROM npc_items WHERE npc = ?", [id.rawValue])
            try write("DELETE FROM npcs WHERE id = ?", [id.rawValue])
            return
        }
        try write(
            """
            INSERT INTO npcs(id, location, gold) VALUES (?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET location = excluded.location, gold = excluded.gold
            WHERE (location, gold) != (excluded.location, excluded.gold)
            """, [id.rawValue, npc.location.rawValue, npc.gold])
        let stored = try read("SELECT item, quantity FROM npc_items WHERE npc = ?", [id.rawValue])
        try saveItems(
            npc.inventory, stored: stored, insert: "INSERT INTO npc_items(item, quantity, npc) VALUES (?, ?, ?)",
            update: "UPDATE npc_items SET quantity = ? WHERE item = ? AND npc = ?",
            delete: "DELETE FROM npc_items WHERE item = ? AND npc = ?", owner: id.rawValue)
    }

    /// Writes the items lying at a location, changing only what differs; removes them when the state has no such
    /// location.
    mutating func saveLocation(_ id: LocationID, in world: World) throws {
        guard let location = world.locations[id] else {
            try write("DELETE FROM location_items WHERE location = ?", [id.rawValue])
            try write("DELETE FROM locations WHERE id = ?", [id.rawValue])
            return
        }
        try write("INSERT INTO locations(id) VALUES (?) ON CONFLICT(id) DO NOTHING", [id.rawValue])
        let stored = try read("SELECT item, quantity FROM location_items WHERE location = ?", [id.rawValue])
        try saveItems(
            location.items, stored: stored,
            insert: "INSERT INTO location_items(item, quantity, location) VALUES (?, ?, ?)",
            update: "UPDATE location_items SET quantity = ? WHERE item = ? AND location = ?",
            delete: "DELETE FROM location_items WHERE item = ? AND location = ?", owner: location.id.rawValue)
    }

    /// Brings stored `(item, quantity)` rows in line with `inventory`: inserts, updates and deletes only the rows
    /// that differ. The owner, if any, is the last parameter of each statement.
    private mutating func saveItems(
        _ inventory: Inventory, stored rows: [Row], insert: String, update: String, delete: String, owner: String?
    ) throws {
        var stored: [String: Int] = [:]
        for row in rows { stored[try row.get(0)] = try row.get(1) }
        func arguments(_ values: [any SQLiteValueConvertible]) -> StatementArguments {
            StatementArguments(values + (owner.map { [$0] } ?? []))
        }
        for stack in inventory.stacks {
            switch stored.removeValue(forKey: stack.item.rawValue) {
            case nil: try write(insert, arguments([stack.item.rawValue, stack.quantity]))
            case let quantity? where quantity != stack.quantity:
                try write(update, arguments([stack.quantity, stack.item.rawValue]))
            default: break
            }
        }
        for item in stored.keys.sorted() {
            try write(delete, arguments([item]))
        }
    }

    // MARK: - Story

    /// Writes the rows of the named flags, counters, attitudes, quests and NPCs' beats as `story` has them: a row
    /// for each value that differs from the start, none for the others. Only rows that differ are written.
    mutating func saveStory(
        _ story: StoryState, flags: Set<String>, counters: Set<String>, attitudes: Set<NPCID>, quests: Set<QuestID>,
        beats: Set<NPCID>, dealings: Set<NPCID>
    ) throws {
        for name in flags.sorted() {
            if story.flags.contains(name) {
                try write("INSERT INTO flags(name) VALUES (?) ON CONFLICT(name) DO NOTHING", [name])
            } else {
                try write("DELETE FROM flags WHERE name = ?", [name])
            }
        }
        for name in counters.sorted() {
            try saveValue(story.counters[name], table: "counters", key: "name", id: name)
        }
        for npc in attitudes.sorted() {
            try saveValue(story.attitudes[npc], table: "attitudes", key: "npc", id: npc.rawValue)
        }
        for quest in quests.sorted() {
            if let stage = story.quests[quest] {
                try write(
                    """
                    INSERT INTO quests(id, stage) VALUES (?, ?)
                    ON CONFLICT(id) DO UPDATE SET stage = excluded.stage WHERE stage IS NOT excluded.stage
                    """, [quest.rawValue, stage])
            } else {
                try write("DELETE FROM quests WHERE id = ?", [quest.rawValue])
            }
        }
        for npc in beats.sorted() {
            var stored: [String: Int] = [:]
            for row in try read("SELECT beat, count FROM beats WHERE npc = ?", [npc.rawValue]) {
                stored[try row.get(0)] = try row.get(1)
            }
            for (beat, count) in (story.beats[npc] ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard stored.removeValue(forKey: beat) != count else { continue }
                try write(
                    """
                    INSERT INTO beats(npc, beat, count) VALUES (?, ?, ?)
                    ON CONFLICT(npc, beat) DO UPDATE SET count = excluded.count
                    """, [npc.rawValue, beat, count])
            }
            for beat in stored.keys.sorted() {
                try write("DELETE FROM beats WHERE npc = ? AND beat = ?", [npc.rawValue, beat])
            }
        }
        for npc in dealings.sorted() {
            try saveDealings(story.dealings(with: npc), npc: npc)
        }
    }

    /// Writes the whole story into empty story tables.
    mutating func insertStory(_ story: StoryState) throws {
        try saveStory(
            story, flags: story.flags, counters: Set(story.counters.keys), attitudes: Set(story.attitudes.keys),
            quests: Set(story.quests.keys), beats: Set(story.beats.keys), dealings: Set(story.dealings.keys))
    }

    /// Writes an NPC's dealings: appends those after the ones the save holds, or, when the save holds more than the
    /// state (a state that is not this save's continuation), replaces them.
    private mutating func saveDealings(_ dealings: [ConversationFacts.Dealing], npc: NPCID) throws {
        let stored =
            try read("SELECT count(*) FROM dealings WHERE npc = ?", [npc.rawValue]).first?.get(0, as: Int.self) ?? 0
        var first = stored
        if stored > dealings.count {
            try write("DELETE FROM dealings WHERE npc = ?", [npc.rawValue])
            first = 0
        }
        for (position, dealing) in dealings.enumerated().dropFirst(first) {
            try write(
                "INSERT INTO dealings(npc, position, kind, item, quantity, gold) VALUES (?, ?, ?, ?, ?, ?)",
                [npc.rawValue, position, dealing.kind.rawValue, dealing.item.rawValue, dealing.quantity, dealing.gold])
        }
    }

    /// Upserts a `(key, value)` row, or deletes it when the value is `nil` (at its default).
    private mutating func saveValue(_ value: Int?, table: String, key: String, id: String) throws {
        guard let value else {
            try write("DELETE FROM \(table) WHERE \(key) = ?", [id])
            return
        }
        try write(
            """
            INSERT INTO \(table)(\(key), value) VALUES (?, ?)
            ON CONFLICT(\(key)) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value
            """, [id, value])
    }

    // MARK: - Conversations

    /// Writes a conversation that the save does not hold: its row, every entry, its annotations and its turns'.
    mutating func insertConversation(_ npc: NPCID, _ conversation: AnnotatedTranscript) throws {
        let entries = conversation.transcript
        try write("INSERT INTO conversations(npc, entry_count) VALUES (?, ?)", [npc.rawValue, entries.count])
        for (position, entry) in entries.enumerated() {
            try insertEntry(entry, npc: npc, position: position)
        }
        for (key, value) in conversation.annotations.sorted(by: { $0.key < $1.key }) {
            try write(
                "INSERT INTO conversation_annotations(npc, key, value) VALUES (?, ?, ?)", [npc.rawValue, key, value])
        }
        for (prompt, annotations) in conversation.turnAnnotations.sorted(by: { $0.key < $1.key }) {
            try saveTurnAnnotations(annotations, npc: npc, prompt: prompt)
        }
    }

    /// Appends the entries of `conversation` that the save does not hold yet, and the new turns' annotations.
    ///
    /// The saved conversation is continued when the transcript has at least as many entries as saved and its entry
    /// at the last saved position has the saved id. Otherwise (the transcript was trimmed, edited or replaced) the
    /// saved conversation is deleted and written again in full, and the NPC is added to
    /// ``SaveWriteSummary/rewrittenConversations``.
    mutating func appendConversation(_ npc: NPCID, _ conversation: AnnotatedTranscript) throws {
        let entries = conversation.transcript
        guard let savedCount = try read("SELECT entry_count FROM conversations WHERE npc = ?", [npc.rawValue]).first
        else {
            try insertConversation(npc, conversation)
            summary.entriesAppended += entries.count
            return
        }
        let count: Int = try savedCount.get(0)
        var continues = entries.count >= count
        if continues, count > 0 {
            let lastID = try read(
                "SELECT entry_id FROM transcript_entries WHERE npc = ? AND position = ?", [npc.rawValue, count - 1]
            ).first
            continues = try lastID?.get(0, as: String.self) == entries[count - 1].id
        }
        guard continues else {
            try deleteConversation(npc)
            try insertConversation(npc, conversation)
            summary.rewrittenConversations.append(npc)
            return
        }
        for position in count..<entries.count {
            try insertEntry(entries[position], npc: npc, position: position)
            if case .prompt(let prompt) = entries[position], let annotations = conversation.turnAnnotations[prompt.id] {
                try saveTurnAnnotations(annotations, npc: npc, prompt: prompt.id)
            }
        }
        summary.entriesAppended += entries.count - count
        if entries.count != count {
            try write("UPDATE conversations SET entry_count = ? WHERE npc = ?", [entries.count, npc.rawValue])
        }
        try saveConversationAnnotations(conversation.annotations, npc: npc)
    }

    /// Deletes a conversation and everything that belongs to it.
    mutating func deleteConversation(_ npc: NPCID) throws {
        for table in ["transcript_entries", "conversation_annotations", "turn_annotations"] {
            try write("DELETE FROM \(table) WHERE npc = ?", [npc.rawValue])
        }
        try write("DELETE FROM conversations WHERE npc = ?", [npc.rawValue])
    }

    private mutating func insertEntry(_ entry: Transcript.Entry, npc: NPCID, position: Int) throws {
        try write(
            "INSERT INTO transcript_entries(npc, position, entry_id, role, kind, json) VALUES (?, ?, ?, ?, ?, ?)",
            [npc.rawValue, position, entry.id, entry.appleRole, Self.kind(of: entry), entry.jsonString()])
    }

    private mutating func saveTurnAnnotations(_ annotations: [String: String], npc: NPCID, prompt: String) throws {
        for (key, value) in annotations.sorted(by: { $0.key < $1.key }) {
            try write(
                """
                INSERT INTO turn_annotations(npc, prompt_entry_id, key, value) VALUES (?, ?, ?, ?)
                ON CONFLICT(npc, prompt_entry_id, key) DO UPDATE SET value = excluded.value
                WHERE value IS NOT excluded.value
                """, [npc.rawValue, prompt, key, value])
        }
    }

    /// Brings a conversation's annotations in line with `annotations`, writing only what differs.
    private mutating func saveConversationAnnotations(_ annotations: [String: String], npc: NPCID) throws {
        var stored: [String: String] = [:]
        for row in try read("SELECT key, value FROM conversation_annotations WHERE npc = ?", [npc.rawValue]) {
            stored[try row.get(0)] = try row.get(1)
        }
        for (key, value) in annotations.sorted(by: { $0.key < $1.key }) where stored.removeValue(forKey: key) != value {
            try write(
                """
                INSERT INTO conversation_annotations(npc, key, value) VALUES (?, ?, ?)
                ON CONFLICT(npc, key) DO UPDATE SET value = excluded.value
                """, [npc.rawValue, key, value])
        }
        for key in stored.keys.sorted() {
            try write("DELETE FROM conversation_annotations WHERE npc = ? AND key = ?", [npc.rawValue, key])
        }
    }

    /// The entry's kind as the `kind` column has it: the name of its case.
    static func kind(of entry: Transcript.Entry) -> String {
        switch entry {
        case .instructions: "instructions"
        case .prompt: "prompt"
        case .toolCalls: "toolCalls"
        case .toolOutput: "toolOutput"
        case .response: "response"
        case .reasoning: "reasoning"
        case .unknown: "unknown"
        }
    }

    // MARK: - Attachments

    /// Adds feedback attachments or recordings; an id the table holds already keeps its first row. A recording's
    /// shared members are stored once (see ``RecordingParts``).
    mutating func insertAttachments(_ attachments: [SavedAttachment], into table: SaveFile.AttachmentTable) throws {
        for attachment in attachments {
            var json = attachment.json
            if table == .recordings, let (stored, parts) = RecordingParts.split(json) {
                var object = stored
                for part in parts {
                    object[part.member] = [RecordingParts.referenceKey: .string(try storePart(part.json))]
                }
                json = JSONValue.object(object).jsonString()
            }
            try write(
                "INSERT OR IGNORE INTO \(table.rawValue)(id, npc, created_at, json) VALUES (?, ?, ?, ?)",
                [attachment.id, attachment.npc?.rawValue, SaveCoding.text(attachment.createdAt), json])
        }
    }

    /// Stores a shared part once and returns its id: the content's hash, or the hash and a counter in the
    /// unlikely case that another content has that hash already.
    private mutating func storePart(_ json: String) throws -> String {
        let base = RecordingParts.baseID(of: json)
        for attempt in 1... {
            let id = attempt == 1 ? base : "\(base)-\(attempt)"
            guard let stored = try read("SELECT json FROM recording_parts WHERE id = ?", [id]).first else {
                try write("INSERT INTO recording_parts(id, json) VALUES (?, ?)", [id, json])
                return id
            }
            if try stored.get(0, as: String.self) == json { return id }
        }
        preconditionFailure("unreachable: the loop above returns")
    }

    // MARK: - Pending offers

    /// Brings the pending offers in line with `offers`, writing only what differs.
    mutating func savePendingOffers(_ offers: [NPCID: SavedOffer]) throws {
        var stored: [String: (json: String, summary: String)] = [:]
        for row in try read("SELECT npc, offer_json, summary FROM pending_offers") {
            stored[try row.get(0)] = (try row.get(1), try row.get(2))
        }
        for (npc, offer) in offers.sorted(by: { $0.key < $1.key }) {
            let json = try SaveCoding.json(offer.offer)
            let old = stored.removeValue(forKey: npc.rawValue)
            guard old?.json != json || old?.summary != offer.summary else { continue }
            try write(
                """
                INSERT INTO pending_offers(npc, offer_json, summary) VALUES (?, ?, ?)
                ON CONFLICT(npc) DO UPDATE SET offer_json = excluded.offer_json, summary = excluded.summary
                """, [npc.rawValue, json, offer.summary])
        }
        for npc in stored.keys.sorted() {
            try write("DELETE FROM pending_offers WHERE npc = ?", [npc])
        }
    }
}
