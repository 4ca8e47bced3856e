import ParleySQLite

/// Everything ``SaveFile/load(pack:)`` reads from a save except the conversations, read in one transaction.
///
/// Rows are sorted by their keys (NPCs by id, each holder's items by item, conversations by NPC), so that a load
/// reports what the pack lacks, and an export lists the save, in the same order every time. They are read in the
/// order they are stored and sorted here only when that order is not already theirs (it is, for a save written in
/// full and not changed since): a scan of each table, rather than one look-up of a row per key of its index.
struct SavedRows: Sendable {
    /// A stored `(item, quantity)` row.
    typealias Stack = (item: String, quantity: Int)

    var metadata: SaveMetadata
    var player: (name: String, location: String, gold: Int)
    var playerItems: [Stack] = []
    var npcs: [(id: String, location: String, gold: Int)] = []
    var npcItems: [String: [Stack]] = [:]
    var locations: [String] = []
    var locationItems: [String: [Stack]] = [:]
    var offers: [(npc: String, json: String, summary: String)] = []
    var conversations: [(npc: String, entries: Int)] = []
    var story = StoryRows()

    init(_ db: Database, path: String) throws {
        metadata = try SaveFile.readMetadata(db, path: path)
        guard let row = try db.query("SELECT name, location, gold FROM player WHERE id = 1").first else {
            throw SaveGameError(.corrupt, path: path, detail: "the save has metadata but no player row")
        }
        player = (try row.get(0), try row.get(1), try row.get(2))
        try Self.each(db, "SELECT item, quantity FROM player_items") { row in
            playerItems.append((try row.column(at: 0), try row.column(at: 1)))
        }
        Self.sort(&playerItems)
        try Self.each(db, "SELECT id, location, gold FROM npcs") { row in
            npcs.append((try row.column(at: 0), try row.column(at: 1), try row.column(at: 2)))
        }
        if !npcs.isSorted(by: { $0.id < $1.id }) { npcs.sort { $0.id < $1.id } }
        try Self.each(db, "SELECT npc, item, quantity FROM npc_items") { row in
            npcItems[try row.column(at: 0), default: []].append((try row.column(at: 1), try row.column(at: 2)))
        }
        Self.sortEach(&npcItems)
        locations = try db.query("SELECT id FROM locations ORDER BY id").map { try $0.get(0) }
        try Self.each(db, "SELECT location, item, quantity FROM location_items") { row in
            locationItems[try row.column(at: 0), default: []].append((try row.column(at: 1), try row.column(at: 2)))
        }
        Self.sortEach(&locationItems)
        offers = try db.query("SELECT npc, offer_json, summary FROM pending_offers ORDER BY npc").map {
            (try $0.get(0), try $0.get(1), try $0.get(2))
        }
        try Self.each(db, "SELECT npc, entry_count FROM conversations") { row in
            conversations.append((try row.column(at: 0), try row.column(at: 1)))
        }
        if !conversations.isSorted(by: { $0.npc < $1.npc }) { conversations.sort { $0.npc < $1.npc } }
        story = try StoryRows(db)
    }

    /// Runs `sql` and hands `body` the statement at each row, to read its columns without copying the row.
    private static func each(_ db: Database, _ sql: String, _ body: (Statement) throws -> Void) throws {
        let statement = try db.prepare(sql)
        while try statement.step() { try body(statement) }
    }

    /// Sorts each holder's stacks by item, in place.
    private static func sortEach(_ holders: inout [String: [Stack]]) {
        var index = holders.values.startIndex
        while index != holders.values.endIndex {
            sort(&holders.values[index])
            holders.values.formIndex(after: &index)
        }
    }

    /// Sorts stacks by item, unless they are sorted already.
    private static func sort(_ stacks: inout [Stack]) {
        if !stacks.isSorted(by: { $0.item < $1.item }) { stacks.sort { $0.item < $1.item } }
    }
}

extension Sequence {
    /// Whether each element is in order with the next, by `areInIncreasingOrder`.
    fileprivate func isSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
        var previous: Element?
        for element in self {
            if let previous, areInIncreasingOrder(element, previous) { return false }
            previous = element
        }
        return true
    }
}
