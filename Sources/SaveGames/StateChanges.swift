import GameWorld

/// The parts of a game state that a list of events changed: the player, some NPCs, some locations.
///
/// ```swift
/// let changes = StateChanges(events: [.tookItem(item: "lantern", quantity: 1, from: "market_square")])
/// changes.player      // true
/// changes.locations   // ["market_square"]
/// ```
public struct StateChanges: Sendable, Hashable {
    /// Whether the player changed.
    public var player: Bool
    /// The NPCs that changed.
    public var npcs: Set<NPCID>
    /// The locations whose items changed.
    public var locations: Set<LocationID>

    /// No change.
    public init() {
        player = false
        npcs = []
        locations = []
    }

    /// The parts changed by `events`.
    ///
    /// `moved` changes the player; `tookItem` and `droppedItem` the player and the location; `gave`, `received`,
    /// `paidGold`, `receivedGold` and `traded` the player and the NPC; `npcMoved` the NPC.
    ///
    /// - Parameter events: The events, in any order.
    public init(events: some Sequence<GameEvent>) {
        self.init()
        for event in events { add(event) }
    }

    /// Adds what `event` changes.
    ///
    /// - Parameter event: An applied event.
    public mutating func add(_ event: GameEvent) {
        switch event {
        case .moved:
            player = true
        case .tookItem(_, _, let location), .droppedItem(_, _, let location):
            player = true
            locations.insert(location)
        case .gave(_, _, let npc), .received(_, _, let npc), .paidGold(_, let npc), .receivedGold(_, let npc):
            player = true
            npcs.insert(npc)
        case .traded(let offer):
            player = true
            npcs.insert(offer.npc)
        case .npcMoved(let npc, _, _):
            npcs.insert(npc)
        }
    }
}
