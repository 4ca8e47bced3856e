import Synchronization

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
    public var items: [ItemID: Item] {
        didSet { catalogIndex = CatalogIndex() }
    }
    /// Every NPC by id.
    public var npcs: [NPCID: NPC]
    /// What the player must achieve.
    public var goal: GameGoal
    /// The quests declared in `world.json`, by id.
    public var quests: [QuestID: Quest]
    /// The words the pack's players speak (`lexicon.json`, English by default). Values derived from the catalog
    /// may depend on it too: changing it starts them afresh.
    public var lexicon: Lexicon {
        didSet { catalogIndex = CatalogIndex() }
    }
    /// The actions the game lets NPCs take (`actions.json`), by id; none by default.
    public var actions: [GameActionID: GameAction] = [:]
    /// The fingerprint of the pack the world was loaded from.
    public var contentHash: ContentHash
    /// The index of the catalog's names, built at first use; copies of the world share it until `items` changes.
    /// Not part of the world's value: it is derived from `items`.
    private var catalogIndex = CatalogIndex()

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
    ///   - lexicon: The words players speak; English by default.
    ///   - actions: The actions the game lets NPCs take; none by default.
    ///   - contentHash: The pack's fingerprint.
    public init(
        id: String, title: String, introduction: String = "", locations: [Location], items: [Item], npcs: [NPC],
        goal: GameGoal, quests: [Quest] = [], lexicon: Lexicon = .english, actions: [GameAction] = [],
        contentHash: ContentHash = .empty
    ) {
        self.id = id
        self.title = title
        self.introduction = introduction
        self.locations = Dictionary(locations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.items = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.npcs = Dictionary(npcs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.goal = goal
        self.quests = Dictionary(quests.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.lexicon = lexicon
        self.actions = Dictionary(actions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.contentHash = contentHash
    }

    // MARK: - Languages

    /// The lexicon an NPC speaks: the built-in one of its `language` when it speaks another than the pack's, else the
    /// pack's (`lexicon`). Its built-in lines, its `{stock}` and `{summary}` texts, and the numbers the claim check
    /// reads in its lines come from it; so do the words the scripted model reads what the player says to it with.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: Its lexicon.
    public func lexicon(for npc: NPCID) -> Lexicon { lexicon(speaking: npcs[npc]?.language) }

    /// The lexicon of a language spoken in the world: the pack's (`lexicon`) for its own language or none, else the
    /// built-in one of that language (the pack's when there is none; the content checker reports such an NPC).
    ///
    /// - Parameter language: A BCP 47 tag, or `nil` for the pack's language.
    /// - Returns: The lexicon.
    public func lexicon(speaking language: String?) -> Lexicon {
        guard let language, !Lexicon.sameLanguage(language, lexicon.language), let builtIn = Lexicon.builtIn(language)
        else { return lexicon }
        return builtIn
    }

    // MARK: - The catalog's names

    /// The index of the catalog's names: finds items by name, and the items a sentence names, in time that
    /// follows the text rather than the catalog. Built at the first call, in one pass over `items`, and kept
    /// with the world (and its copies) until `items` changes.
    public var itemNames: ItemNames { catalogDerived { ItemNames($0.items.values) } }

    /// A value built from the world's catalog once, then kept with the world and every copy of it until `items`
    /// changes: for indexes over the catalog that several parts of a game need (every NPC's scripted model finds
    /// items by name), so that each is built once per world rather than once per use.
    ///
    /// ```swift
    /// let names = world.catalogDerived { ItemNames($0.items.values) }   // what `itemNames` does
    /// ```
    ///
    /// Values are told apart by their type. `build` must not keep the world (the value is kept inside it), and
    /// the value must follow from `items` alone, or check what else it depends on when it is read.
    ///
    /// - Parameter build: Builds the value; called once per catalog and type (or, rarely, once more when two
    ///   threads ask at the same moment: the first value stored wins).
    /// - Returns: The value.
    public func catalogDerived<Value: Sendable>(_ build: (World) -> Value) -> Value {
        let key = ObjectIdentifier(Value.self)
        if let value = catalogIndex.values.withLock({ $0[key] }) as? Value { return value }
        let built = build(self)
        return catalogIndex.values.withLock { values in
            if let stored = values[key] as? Value { return stored }
            values[key] = built
            return built
        }
    }

    /// Holds the values derived from one catalog (`catalogDerived(_:)`), for every copy of a world.
    private final class CatalogIndex: Sendable {
        let values = Mutex<[ObjectIdentifier: any Sendable]>([:])
    }

    // MARK: - Equality (the index is derived, so it takes no part)
    // Written out because the derived values' box must not count: a member added to World must be added here too.

    /// Whether two worlds are the same: every member but the derived name index.
    public static func == (lhs: World, rhs: World) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title && lhs.introduction == rhs.introduction
            && lhs.contentHash == rhs.contentHash && lhs.goal == rhs.goal && lhs.quests == rhs.quests
            && lhs.locations == rhs.locations && lhs.npcs == rhs.npcs && lhs.items == rhs.items
            && lhs.lexicon == rhs.lexicon && lhs.actions == rhs.actions
    }

    /// Hashes every member but the derived name index.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(title)
        hasher.combine(introduction)
        hasher.combine(locations)
        hasher.combine(items)
        hasher.combine(npcs)
        hasher.combine(goal)
        hasher.combine(quests)
        hasher.combine(lexicon)
        hasher.combine(actions)
        hasher.combine(contentHash)
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case id, title, introduction, locations, items, npcs, goal, quests, lexicon, actions, contentHash
    }

    /// Encodes a world; the lexicon only when it is not the built-in English one, the actions only when there are any.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(introduction, forKey: .introduction)
        try container.encode(locations, forKey: .locations)
        try container.encode(items, forKey: .items)
        try container.encode(npcs, forKey: .npcs)
        try container.encode(goal, forKey: .goal)
        try container.encode(quests, forKey: .quests)
        if lexicon != .english { try container.encode(lexicon, forKey: .lexicon) }
        if !actions.isEmpty { try container.encode(actions, forKey: .actions) }
        try container.encode(contentHash, forKey: .contentHash)
    }

    /// Decodes a world; `quests`, `lexicon` and `actions`, added after the first save format, may be missing.
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
        lexicon = try container.decodeIfPresent(Lexicon.self, forKey: .lexicon) ?? .english
        actions = try container.decodeIfPresent([GameActionID: GameAction].self, forKey: .actions) ?? [:]
        contentHash = try container.decode(ContentHash.self, forKey: .contentHash)
    }

    /// The actions an NPC may take (those whose `npcs` list it), sorted by id.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: Its actions.
    public func actions(for npc: NPCID) -> [GameAction] {
        actions.values.filter { $0.isAvailable(to: npc) }.sorted { $0.id < $1.id }
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
