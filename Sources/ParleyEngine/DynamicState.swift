import GameWorld
import ParleyJSON

/// The part of a game state that changes in play: where the player and the NPCs are, their gold, what everyone
/// carries, what lies where. The rest (descriptions, personas, rules) comes from the content pack.
///
/// Recordings keep one per turn, so a replay starts each turn from the same game state.
public struct DynamicState: Sendable, Equatable {
    /// The player: name, location, gold, inventory.
    public var player: Player
    /// Each NPC's location, gold and inventory.
    public var npcs: [NPCID: (location: LocationID, gold: Int, inventory: Inventory)]
    /// What lies in each location.
    public var locationItems: [LocationID: Inventory]
    /// The story's progress: flags, counters, attitudes, quest stages, beats fired.
    public var story: StoryState

    /// The dynamic part of a state.
    ///
    /// - Parameter state: The whole state.
    public init(_ state: GameState) {
        player = state.player
        npcs = state.world.npcs.mapValues { ($0.location, $0.gold, $0.inventory) }
        locationItems = state.world.locations.mapValues(\.items)
        story = state.story
    }

    /// This dynamic state laid over a base (usually the pack's initial state); ids the base lacks are skipped.
    ///
    /// - Parameter base: The state whose static parts to keep.
    /// - Returns: The combined state.
    public func applied(to base: GameState) -> GameState {
        var world = base.world
        for (id, npc) in npcs where world.npcs[id] != nil {
            world.npcs[id]?.location = npc.location
            world.npcs[id]?.gold = npc.gold
            world.npcs[id]?.inventory = npc.inventory
        }
        for (id, items) in locationItems where world.locations[id] != nil { world.locations[id]?.items = items }
        return GameState(world: world, player: player, story: story)
    }

    /// Equal when every part is equal.
    public static func == (lhs: DynamicState, rhs: DynamicState) -> Bool {
        lhs.player == rhs.player && lhs.locationItems == rhs.locationItems && lhs.story == rhs.story
            && lhs.npcs.count == rhs.npcs.count
            && lhs.npcs.allSatisfy { id, npc in
                rhs.npcs[id].map { $0.location == npc.location && $0.gold == npc.gold && $0.inventory == npc.inventory }
                    ?? false
            }
    }

    // MARK: - JSON

    static func inventory(_ inventory: Inventory) -> JSONValue {
        .object(
            JSONObject(
                inventory.sorted { $0.item.rawValue < $1.item.rawValue }.map {
                    ($0.item.rawValue, .integer($0.quantity))
                }))
    }

    static func inventory(_ value: JSONValue?) -> Inventory {
        Inventory(
            (value?.objectValue ?? JSONObject()).compactMap { key, quantity in
                quantity.intValue.map { ItemStack(ItemID(key), quantity: $0) }
            })
    }

    /// The state as JSON.
    public var jsonValue: JSONValue {
        [
            "player": [
                "name": .string(player.name), "location": .string(player.location.rawValue),
                "gold": .integer(player.gold), "inventory": Self.inventory(player.inventory),
            ],
            "npcs": .object(
                JSONObject(
                    npcs.sorted { $0.key.rawValue < $1.key.rawValue }.map { id, npc in
                        (
                            id.rawValue,
                            [
                                "location": .string(npc.location.rawValue), "gold": .integer(npc.gold),
                                "inventory": Self.inventory(npc.inventory),
                            ]
                        )
                    })),
            "locations": .object(
                JSONObject(
                    locationItems.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                        ($0.key.rawValue, Self.inventory($0.value))
                    })),
            "story": Self.json(story),
        ]
    }

    /// Reads a state from its JSON.
    ///
    /// A missing `story` is an empty story (recordings written before stories were recorded have none); a `story`
    /// that is there but not a story is an error, never an empty story.
    ///
    /// - Parameter value: The JSON, as `jsonValue` wrote it.
    /// - Throws: `DecodingError`, with the coding path below `story`, when `story` is not a story state.
    public init(jsonValue value: JSONValue) throws {
        let player = value["player"]
        self.player = Player(
            name: player?["name"]?.stringValue ?? "", location: LocationID(player?["location"]?.stringValue ?? ""),
            gold: player?["gold"]?.intValue ?? 0, inventory: Self.inventory(player?["inventory"]))
        var npcs: [NPCID: (location: LocationID, gold: Int, inventory: Inventory)] = [:]
        for (id, npc) in value["npcs"]?.objectValue ?? JSONObject() {
            npcs[NPCID(id)] = (
                LocationID(npc["location"]?.stringValue ?? ""), npc["gold"]?.intValue ?? 0,
                Self.inventory(npc["inventory"])
            )
        }
        self.npcs = npcs
        var locations: [LocationID: Inventory] = [:]
        for (id, items) in value["locations"]?.objectValue ?? JSONObject() {
            locations[LocationID(id)] = Self.inventory(items)
        }
        locationItems = locations
        story = try value["story"].map(Self.story) ?? StoryState()
    }

    /// The story as JSON, keys sorted at every level (the bytes Foundation's `JSONEncoder` wrote with
    /// `.sortedKeys` before, so recordings keep their bytes).
    ///
    /// A story holds only strings and integers, which always encode: a failure here is a bug in `StoryState`'s
    /// `encode(to:)`, reported as one rather than written as an empty story.
    static func json(_ story: StoryState) -> JSONValue {
        do {
            return try JSONValueEncoder(keyOrder: .sorted).encode(story)
        } catch {
            preconditionFailure("A story state did not encode: \(error)")
        }
    }

    /// The story from its JSON.
    ///
    /// - Throws: `DecodingError` when the JSON is not a story state.
    static func story(_ value: JSONValue) throws -> StoryState {
        try JSONValueDecoder().decode(StoryState.self, from: value)
    }
}
