import GameWorld
import ParleySQLite

/// The story's rows of a save, as stored: flags, counters, attitudes, quest stages and beats fired, sorted.
struct StoryRows: Sendable {
    var flags: [String] = []
    var counters: [(name: String, value: Int)] = []
    var attitudes: [(npc: String, value: Int)] = []
    var quests: [(id: String, stage: String)] = []
    var beats: [(npc: String, beat: String, count: Int)] = []
    var dealings: [(npc: String, position: Int, kind: String, item: String, quantity: Int, gold: Int)] = []

    init() {}

    init(_ db: Database) throws {
        flags = try db.query("SELECT name FROM flags ORDER BY name").map { try $0.get(0) }
        counters = try db.query("SELECT name, value FROM counters ORDER BY name").map {
            (try $0.get(0), try $0.get(1))
        }
        attitudes = try db.query("SELECT npc, value FROM attitudes ORDER BY npc").map {
            (try $0.get(0), try $0.get(1))
        }
        quests = try db.query("SELECT id, stage FROM quests ORDER BY id").map { (try $0.get(0), try $0.get(1)) }
        beats = try db.query("SELECT npc, beat, count FROM beats ORDER BY npc, beat").map {
            (try $0.get(0), try $0.get(1), try $0.get(2))
        }
        dealings = try db.query(
            "SELECT npc, position, kind, item, quantity, gold FROM dealings ORDER BY npc, position"
        ).map { (try $0.get(0), try $0.get(1), try $0.get(2), try $0.get(3), try $0.get(4), try $0.get(5)) }
    }

    /// Each NPC's dealings as stored, oldest first; a row whose kind is unknown is left out (``SaveRanges`` refuses
    /// such a save before it is loaded).
    var dealingsByNPC: [NPCID: [ConversationFacts.Dealing]] {
        var byNPC: [NPCID: [ConversationFacts.Dealing]] = [:]
        for row in dealings {
            guard let kind = ConversationFacts.Dealing.Kind(rawValue: row.kind) else { continue }
            byNPC[NPCID(row.npc), default: []].append(
                .init(kind, item: ItemID(row.item), quantity: row.quantity, gold: row.gold))
        }
        return byNPC
    }

    /// The rows as a story state, taken as they are (nothing is checked against a content pack).
    var state: StoryState {
        var beatCounts: [NPCID: [String: Int]] = [:]
        for row in beats { beatCounts[NPCID(row.npc), default: [:]][row.beat] = row.count }
        return StoryState(
            flags: Set(flags), counters: Dictionary(counters, uniquingKeysWith: { first, _ in first }),
            attitudes: Dictionary(attitudes.map { (NPCID($0.npc), $0.value) }, uniquingKeysWith: { first, _ in first }),
            quests: Dictionary(quests.map { (QuestID($0.id), $0.stage) }, uniquingKeysWith: { first, _ in first }),
            beats: beatCounts, dealings: dealingsByNPC)
    }
}
