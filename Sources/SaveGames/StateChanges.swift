import GameWorld

/// The parts of a game state that a list of events changed: the player, some NPCs, some locations, and the story's
/// flags, counters, attitudes, quests and beats.
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
    /// The flags set or cleared.
    public var flags: Set<String>
    /// The counters changed.
    public var counters: Set<String>
    /// The NPCs whose attitude toward the player changed.
    public var attitudes: Set<NPCID>
    /// The quests that moved on.
    public var quests: Set<QuestID>
    /// The NPCs whose beats fired.
    public var beats: Set<NPCID>
    /// The NPCs the player traded with or gave to, or who gave to the player: their dealings grew.
    public var dealings: Set<NPCID>

    /// No change.
    public init() {
        player = false
        npcs = []
        locations = []
        flags = []
        counters = []
        attitudes = []
        quests = []
        beats = []
        dealings = []
    }

    /// The parts changed by `events`.
    ///
    /// `moved` changes the player; `tookItem` and `droppedItem` the player and the location; `gave`, `received`,
    /// `paidGold`, `receivedGold` and `traded` the player and the NPC; `npcMoved` the NPC; `setFlag` and
    /// `clearedFlag` the flag; `changedCounter` and `setCounter` the counter; `changedAttitude` the NPC's attitude;
    /// `advancedQuest` the quest; `firedBeat` the NPC's beats. `gave`, `received` and `traded` also add to the NPC's
    /// dealings.
    ///
    /// - Parameter events: The events, in any order.
    public init(events: some Sequence<GameEvent>) {
        self.init()
        for event in events { add(event) }
    }

    /// Whether the story (flags, counters, attitudes, quests or beats) changed.
    public var story: Bool {
        !flags.isEmpty || !counters.isEmpty || !attitudes.isEmpty || !quests.isEmpty || !beats.isEmpty
            || !dealings.isEmpty
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
        case .gave(_, _, let npc), .received(_, _, let npc):
            player = true
            npcs.insert(npc)
            dealings.insert(npc)
        case .paidGold(_, let npc), .receivedGold(_, let npc):
            player = true
            npcs.insert(npc)
        case .traded(let offer):
            player = true
            npcs.insert(offer.npc)
            dealings.insert(offer.npc)
        case .npcMoved(let npc, _, _):
            npcs.insert(npc)
        case .setFlag(let name), .clearedFlag(let name):
            flags.insert(name)
        case .changedCounter(let name, _), .setCounter(let name, _):
            counters.insert(name)
        case .changedAttitude(let npc, _):
            attitudes.insert(npc)
        case .advancedQuest(let quest, _):
            quests.insert(quest)
        case .firedBeat(let npc, _):
            beats.insert(npc)
        }
    }
}
