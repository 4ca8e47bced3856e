import ParleyBasics

/// Everything that changes during a game: the world (with its NPCs and the items lying around), the player, and
/// the story's progress (flags, counters, attitudes, quest stages, beats fired).
///
/// A game state changes only by applying `GameEvent`s (see `apply(_:)`), which check the rules and either apply
/// fully or change nothing. It is `Codable` so that save games can store it, and `Equatable` so that a state
/// rebuilt from events can be compared with the original.
///
/// ```swift
/// var state = pack.initialState
/// try state.apply(.moved(from: "market_square", to: "smithy"))
/// try state.apply(.setFlag(name: "met_brannoc"))
/// state.isGoalReached   // false
/// ```
public struct GameState: Hashable, Sendable, Codable {
    /// The world as it is now.
    public private(set) var world: World
    /// The player as they are now.
    public private(set) var player: Player
    /// The story's progress: flags, counters, attitudes, quest stages and beats fired.
    public private(set) var story: StoryState

    /// A state with this world and player, and a story with no progress unless given.
    ///
    /// - Parameters:
    ///   - world: The world, usually a freshly loaded pack's.
    ///   - player: The player, usually the pack's starting player.
    ///   - story: The story's progress; none by default.
    public init(world: World, player: Player, story: StoryState = StoryState()) {
        self.world = world
        self.player = player
        self.story = story
    }

    /// The player's location, or `nil` when the player stands somewhere the world does not have.
    public var currentLocation: Location? { world.locations[player.location] }

    /// The NPCs at the player's location, sorted by name.
    public var npcsHere: [NPC] { world.npcs(at: player.location) }

    /// Whether the world's goal is reached.
    public var isGoalReached: Bool { world.goal.isReached(in: self) }

    // MARK: - Story

    /// The flags that are set.
    public var flags: Set<String> { story.flags }

    /// The counters that are not 0, by name.
    public var counters: [String: Int] { story.counters }

    /// The NPCs' attitudes toward the player that are not 0.
    public var attitudes: [NPCID: Int] { story.attitudes }

    /// The stage of every quest of the world, by quest: the first stage for quests that never moved on.
    public var quests: [QuestID: String] {
        world.quests.mapValues { story.quests[$0.id] ?? $0.firstStage }
    }

    /// A quest's current stage.
    ///
    /// - Parameter quest: The quest's id.
    /// - Returns: Its stage (the first one until it moves on), or `nil` when the world has no such quest.
    public func stage(of quest: QuestID) -> String? {
        guard let declared = world.quests[quest] else { return nil }
        return story.quests[quest] ?? declared.firstStage
    }

    // MARK: - Conservation

    /// All the gold in the game: the player's and every NPC's. No event changes it. `Int.max` when the total
    /// does not fit in an `Int` (a state far beyond `GameLimits`).
    public var totalGold: Int { world.npcs.values.reduce(player.gold) { $0.saturatingAdding($1.gold) } }

    /// How many of each item exist, wherever they are: carried by the player, by NPCs or lying at locations.
    /// No event changes it. A total that does not fit in an `Int` is `Int.max`.
    public var itemTotals: [ItemID: Int] {
        var totals = player.inventory.quantities
        for npc in world.npcs.values {
            totals.merge(npc.inventory.quantities) { $0.saturatingAdding($1) }
        }
        for location in world.locations.values {
            totals.merge(location.items.quantities) { $0.saturatingAdding($1) }
        }
        return totals
    }

    // MARK: - Mutation for events

    /// Replaces the world, player and story at once; used by `apply(_:)` after every check passed.
    mutating func commit(world: World, player: Player, story: StoryState) {
        self.world = world
        self.player = player
        self.story = story
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case world, player, story
    }

    /// Decodes a state; `story`, added after the first save format, may be missing (no progress).
    ///
    /// - Throws: `DecodingError` when a member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        world = try container.decode(World.self, forKey: .world)
        player = try container.decode(Player.self, forKey: .player)
        story = try container.decodeIfPresent(StoryState.self, forKey: .story) ?? StoryState()
    }
}
