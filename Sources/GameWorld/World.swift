/// The world of a content pack: its places, the catalog of items, the NPCs and the goal.
///
/// The world changes as the game goes on (items are taken from locations, NPCs trade), always through
/// `GameState.apply(_:)`. `id` and `contentHash` name the pack it came from, so a save game can tell whether
/// the pack changed since.
public struct World: Hashable, Sendable, Codable {
    /// The pack's world id from `world.json`, for example `brackenford`.
    public var id: String
    /// The world's title, for example `Brackenford Market`.
    public var title: String
    /// The text shown when a new game starts.
    public var introduction: String
    /// Every location by id.
    public var locations: [LocationID: Location]
    /// The catalog of items by id.
    public var items: [ItemID: Item]
    /// Every NPC by id.
    public var npcs: [NPCID: NPC]
    /// What the player must achieve.
    public var goal: GameGoal
    /// The quests declared in `world.json`, by id.
    public var quests: [QuestID: Quest]
    /// The fingerprint of the pack the world was loaded from.
    public var contentHash: ContentHash

    /// Creates a world.
    ///
    /// - Parameters:
    ///   - id: The world id.
    ///   - title: The world's title.
    ///   - introduction: The text shown when a new game starts.
    ///   - locations: The locations.
    ///   - items: The item catalog.
    ///   - npcs: The NPCs.
    ///   - goal: The goal.
    ///   - quests: The quests.
    ///   - contentHash: The pack's fingerprint.
    public init(
        id: String, title: String, introduction: String = "", locations: [Location], items: [Item], npcs: [NPC],
        goal: GameGoal, quests: [Quest] = [], contentHash: ContentHash = .empty
    ) {
        self.id = id
        self.title = title
        self.introduction = introduction
        self.locations = Dictionary(locations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.items = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.npcs = Dictionary(npcs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.goal = goal
        self.quests = Dictionary(quests.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.contentHash = contentHash
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case id, title, introduction, locations, items, npcs, goal, quests, contentHash
    }

    /// Decodes a world; `quests`, added after the first save format, may be missing.
    ///
    /// - Throws: `DecodingError` when a member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        introduction = try container.decode(String.self, forKey: .introduction)
        locations = try container.decode([LocationID: Location].self, forKey: .locations)
        items = try container.decode([ItemID: Item].self, forKey: .items)
        npcs = try container.decode([NPCID: NPC].self, forKey: .npcs)
        goal = try container.decode(GameGoal.self, forKey: .goal)
        quests = try container.decodeIfPresent([QuestID: Quest].self, forKey: .quests) ?? [:]
        contentHash = try container.decode(ContentHash.self, forKey: .contentHash)
    }

    /// The NPCs at `location`, sorted by name.
    ///
    /// - Parameter location: The location's id.
    /// - Returns: The NPCs there.
    public func npcs(at location: LocationID) -> [NPC] {
        npcs.values.filter { $0.location == location }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    /// The display name of an item, or its id when the catalog does not have it.
    ///
    /// - Parameter item: The item's id.
    /// - Returns: For example `Silver Sword`.
    public func name(of item: ItemID) -> String { items[item]?.name ?? item.rawValue }

    /// The display name of an NPC, or its id when there is no such NPC.
    ///
    /// - Parameter npc: The NPC's id.
    /// - Returns: For example `Mira Quickcoin`.
    public func name(of npc: NPCID) -> String { npcs[npc]?.name ?? npc.rawValue }

    /// The name of a quest, or its id when there is no such quest.
    ///
    /// - Parameter quest: The quest's id.
    /// - Returns: For example `The Moonpetal Locket`.
    public func name(of quest: QuestID) -> String { quests[quest]?.name ?? quest.rawValue }

    /// The display name of a location, or its id when there is no such location.
    ///
    /// - Parameter location: The location's id.
    /// - Returns: For example `Market Square`.
    public func name(of location: LocationID) -> String { locations[location]?.name ?? location.rawValue }
}
