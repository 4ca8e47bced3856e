/// Everything that changes during a game: the world (with its NPCs and the items lying around) and the player.
///
/// A game state changes only by applying `GameEvent`s (see `apply(_:)`), which check the rules and either apply
/// fully or change nothing. It is `Codable` so that save games can store it, and `Equatable` so that a state
/// rebuilt from events can be compared with the original.
///
/// ```swift
/// var state = pack.initialState
/// try state.apply(.moved(from: "market_square", to: "smithy"))
/// state.isGoalReached   // false
/// ```
public struct GameState: Hashable, Sendable, Codable {
    /// The world as it is now.
    public private(set) var world: World
    /// The player as they are now.
    public private(set) var player: Player

    /// A state with this world and player.
    ///
    /// - Parameters:
    ///   - world: The world, usually a freshly loaded pack's.
    ///   - player: The player, usually the pack's starting player.
    public init(world: World, player: Player) {
        self.world = world
        self.player = player
    }

    /// The player's location, or `nil` when the player stands somewhere the world does not have.
    public var currentLocation: Location? { world.locations[player.location] }

    /// The NPCs at the player's location, sorted by name.
    public var npcsHere: [NPC] { world.npcs(at: player.location) }

    /// Whether the world's goal is reached.
    public var isGoalReached: Bool { world.goal.isReached(in: self) }

    // MARK: - Conservation

    /// All the gold in the game: the player's and every NPC's. No event changes it.
    public var totalGold: Int { world.npcs.values.reduce(player.gold) { $0 + $1.gold } }

    /// How many of each item exist, wherever they are: carried by the player, by NPCs or lying at locations.
    /// No event changes it.
    public var itemTotals: [ItemID: Int] {
        var totals = player.inventory.quantities
        for npc in world.npcs.values { totals.merge(npc.inventory.quantities, uniquingKeysWith: +) }
        for location in world.locations.values { totals.merge(location.items.quantities, uniquingKeysWith: +) }
        return totals
    }

    // MARK: - Mutation for events

    /// Replaces the world and player at once; used by `apply(_:)` after every check passed.
    mutating func commit(world: World, player: Player) {
        self.world = world
        self.player = player
    }
}
