import ParleySQLite

/// Everything ``SaveFile/load(pack:)`` reads from a save except the conversations, read in one transaction.
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
        playerItems = try db.query("SELECT item, quantity FROM player_items ORDER BY item").map {
            (try $0.get(0), try $0.get(1))
        }
        npcs = try db.query("SELECT id, location, gold FROM npcs ORDER BY id").map {
            (try $0.get(0), try $0.get(1), try $0.get(2))
        }
        for row in try db.query("SELECT npc, item, quantity FROM npc_items ORDER BY npc, item") {
            npcItems[try row.get(0), default: []].append((try row.get(1), try row.get(2)))
        }
        locations = try db.query("SELECT id FROM locations ORDER BY id").map { try $0.get(0) }
        for row in try db.query("SELECT location, item, quantity FROM location_items ORDER BY location, item") {
            locationItems[try row.get(0), default: []].append((try row.get(1), try row.get(2)))
        }
        offers = try db.query("SELECT npc, offer_json, summary FROM pending_offers ORDER BY npc").map {
            (try $0.get(0), try $0.get(1), try $0.get(2))
        }
        conversations = try db.query("SELECT npc, entry_count FROM conversations ORDER BY npc").map {
            (try $0.get(0), try $0.get(1))
        }
        story = try StoryRows(db)
    }
}
