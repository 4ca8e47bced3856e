/// One condition of the game's goal, checked against the game state.
///
/// In `world.json` each requirement is an object with a `type` and its fields:
///
/// | type            | fields                              | holds when                                      |
/// |-----------------|-------------------------------------|-------------------------------------------------|
/// | `npcHasItem`    | `npc`, `item`, `quantity` (1)       | the NPC carries at least that many of the item  |
/// | `playerHasItem` | `item`, `quantity` (1)              | the player carries at least that many           |
/// | `playerAt`      | `location`                          | the player is there                             |
/// | `playerGold`    | `atLeast`                           | the player has at least that much gold          |
public enum GoalRequirement: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The NPC carries at least `quantity` of `item` (the player brought it).
    case npcHasItem(npc: NPCID, item: ItemID, quantity: Int)
    /// The player carries at least `quantity` of `item`.
    case playerHasItem(item: ItemID, quantity: Int)
    /// The player is at `location`.
    case playerAt(location: LocationID)
    /// The player has at least `atLeast` gold.
    case playerGold(atLeast: Int)

    /// The requirement's `type` in `world.json`.
    public var typeName: String {
        switch self {
        case .npcHasItem: "npcHasItem"
        case .playerHasItem: "playerHasItem"
        case .playerAt: "playerAt"
        case .playerGold: "playerGold"
        }
    }

    /// The `type` names the loader accepts.
    public static let typeNames = ["npcHasItem", "playerHasItem", "playerAt", "playerGold"]

    /// Whether the requirement holds in `state`.
    ///
    /// - Parameter state: The game state to check.
    /// - Returns: `true` when it holds; an unknown NPC never holds anything.
    public func isMet(in state: GameState) -> Bool {
        switch self {
        case .npcHasItem(let npc, let item, let quantity):
            state.world.npcs[npc]?.inventory.contains(item, quantity: quantity) ?? false
        case .playerHasItem(let item, let quantity): state.player.inventory.contains(item, quantity: quantity)
        case .playerAt(let location): state.player.location == location
        case .playerGold(let atLeast): state.player.gold >= atLeast
        }
    }

    /// `npcHasItem(aurelio, moonpetal_locket × 1)`.
    public var description: String {
        switch self {
        case .npcHasItem(let npc, let item, let quantity): "npcHasItem(\(npc), \(item) × \(quantity))"
        case .playerHasItem(let item, let quantity): "playerHasItem(\(item) × \(quantity))"
        case .playerAt(let location): "playerAt(\(location))"
        case .playerGold(let atLeast): "playerGold(at least \(atLeast))"
        }
    }
}
