import GameWorld

/// One change a ``StatePatch`` made to the game state, with the value before and after: what `Game.apply(_:)`
/// returns, and what `PATCH /v1/games/{id}/state` reports as events.
public enum StateChange: Sendable, Hashable, CustomStringConvertible {
    /// The player's name changed.
    case playerName(from: String, to: String)
    /// The player's gold changed.
    case playerGold(from: Int, to: Int)
    /// The quantity of an item the player carries changed (0: none).
    case playerItem(ItemID, from: Int, to: Int)
    /// The player is somewhere else.
    case playerLocation(from: LocationID, to: LocationID)
    /// An NPC's gold changed.
    case npcGold(NPCID, from: Int, to: Int)
    /// The quantity of an item an NPC carries changed (0: none).
    case npcItem(NPCID, ItemID, from: Int, to: Int)
    /// An NPC is somewhere else.
    case npcLocation(NPCID, from: LocationID, to: LocationID)
    /// An NPC's attitude toward the player changed.
    case attitude(NPCID, from: Int, to: Int)
    /// A flag was set.
    case flagSet(String)
    /// A flag was cleared.
    case flagCleared(String)
    /// A counter changed.
    case counter(String, from: Int, to: Int)
    /// A quest is at another stage.
    case quest(QuestID, from: String, to: String)

    /// A readable line, for example `player gold 14 → 40`.
    public var description: String {
        switch self {
        case .playerName(let from, let to): "player name \(from) → \(to)"
        case .playerGold(let from, let to): "player gold \(from) → \(to)"
        case .playerItem(let item, let from, let to): "player \(item) \(from) → \(to)"
        case .playerLocation(let from, let to): "player location \(from) → \(to)"
        case .npcGold(let npc, let from, let to): "\(npc) gold \(from) → \(to)"
        case .npcItem(let npc, let item, let from, let to): "\(npc) \(item) \(from) → \(to)"
        case .npcLocation(let npc, let from, let to): "\(npc) location \(from) → \(to)"
        case .attitude(let npc, let from, let to): "\(npc) attitude \(from) → \(to)"
        case .flagSet(let flag): "flag \(flag) set"
        case .flagCleared(let flag): "flag \(flag) cleared"
        case .counter(let name, let from, let to): "counter \(name) \(from) → \(to)"
        case .quest(let quest, let from, let to): "quest \(quest) \(from) → \(to)"
        }
    }
}
