/// A loaded content pack: the world it describes and the player as they start.
///
/// Load one with `ContentPack.load(from:displayPath:)` (a directory) or `ContentPack.load(files:displayPath:)`
/// (in-memory files, for tests and tools), from the `ContentPacks` module; both return a `ContentLoadResult` with
/// every diagnostic, and a pack only when there are no errors. The layout and fields are documented in
/// `docs/modding.md`. The engine takes a pack however it was made, so the type is the world model's.
///
/// ```swift
/// import ContentPacks
///
/// let result = ContentPack.load(from: URL(fileURLWithPath: "Content"))
/// let pack = try result.get()
/// var state = pack.initialState
/// ```
public struct ContentPack: Hashable, Sendable {
    /// The world, as the pack defines it before the game starts.
    public var world: World
    /// The player as they start.
    public var startingPlayer: Player

    /// Creates a pack from a world and a starting player.
    ///
    /// - Parameters:
    ///   - world: The world.
    ///   - startingPlayer: The player as they start.
    public init(world: World, startingPlayer: Player) {
        self.world = world
        self.startingPlayer = startingPlayer
    }

    /// The game state of a new game.
    public var initialState: GameState { GameState(world: world, player: startingPlayer) }

    /// The pack's world id, from `world.json`.
    public var worldID: String { world.id }

    /// The pack's fingerprint; see `ContentHash`.
    public var contentHash: ContentHash { world.contentHash }

    // MARK: - Layout

    /// The world file's name: locations, the start and the goal.
    public static let worldFileName = "world.json"
    /// The item catalog's name.
    public static let itemsFileName = "items.json"
    /// The lexicon's file name: the words players use (optional; English by default, see `Lexicon`).
    public static let lexiconFileName = "lexicon.json"
    /// The actions file's name: what the game lets NPCs do (optional; see `GameAction`).
    public static let actionsFileName = "actions.json"
    /// The folder of NPC files, one `<id>.json` per NPC.
    public static let npcsDirectoryName = "npcs"
    /// The folder of JSON Schemas, which the loader does not read.
    public static let schemaDirectoryName = "schema"
}
