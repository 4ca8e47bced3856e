/// One change of the game state, as data.
///
/// Every change goes through `GameState.apply(_:)` as one of these events, so the engine, save games and tests
/// all see changes the same way, and a state can be rebuilt by replaying its events from the start
/// (`GameState.replaying(_:from:)`). Events are checked when applied: an event that does not fit the state
/// changes nothing and throws a `GameEventError`.
///
/// No event creates or destroys gold or items; they only move between the player, NPCs and locations. The story
/// events (`setFlag`, `changedCounter`, `advancedQuest`...) change only `GameState.story`.
///
/// Events encode as JSON objects named after the case: `{"moved": {"from": "market_square", "to": "smithy"}}`.
public enum GameEvent: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The player walked from `from` to `to` through one of `from`'s exits; the exit's required item, if any,
    /// must be in their inventory.
    case moved(from: LocationID, to: LocationID)
    /// The player picked up `quantity` of `item` lying at `from`, where they are.
    case tookItem(item: ItemID, quantity: Int, from: LocationID)
    /// The player put down `quantity` of `item` at `at`, where they are.
    case droppedItem(item: ItemID, quantity: Int, at: LocationID)
    /// The player gave `quantity` of `item` to the NPC `to`, who is with them. Any item may be given, quest
    /// items included: this is how quest items are delivered.
    case gave(item: ItemID, quantity: Int, to: NPCID)
    /// The NPC `from`, who is with the player, gave them `quantity` of `item` (a reward, a favour). Any item
    /// may be given, even one the NPC would never sell.
    case received(item: ItemID, quantity: Int, from: NPCID)
    /// The player paid `amount` gold to the NPC `to`, who is with them, outside a trade (a tip, a bribe).
    case paidGold(amount: Int, to: NPCID)
    /// The NPC `from`, who is with the player, paid them `amount` gold outside a trade (a reward).
    case receivedGold(amount: Int, from: NPCID)
    /// The player and an NPC exchanged goods: `offer` passed `TradeRules` and was applied as a whole.
    case traded(offer: TradeOffer)
    /// The NPC `npc` went from `from` to `to` (a schedule, a story beat); NPCs need no exit.
    case npcMoved(npc: NPCID, from: LocationID, to: LocationID)

    // MARK: Story

    /// The flag `name` (a well-formed id) was set; setting a flag that is set changes nothing.
    case setFlag(name: String)
    /// The flag `name` was cleared; clearing a flag that is not set changes nothing.
    case clearedFlag(name: String)
    /// The counter `name` changed by `by` (negative to count down), clamped to `StoryState.counterRange`.
    case changedCounter(name: String, by: Int)
    /// The counter `name` was set to `to`, which must be in `StoryState.counterRange`.
    case setCounter(name: String, to: Int)
    /// The NPC `npc`'s attitude toward the player changed by `by` (from -200 to 200), clamped to
    /// `StoryState.attitudeRange`. The NPC need not be with the player.
    case changedAttitude(npc: NPCID, by: Int)
    /// The quest `quest` moved on to the stage `to`, which must come after its current stage.
    case advancedQuest(quest: QuestID, to: String)
    /// The NPC `npc`'s beat `beat` fired (its lines were said and its effects run), so a beat that fires `once`
    /// does not fire again.
    case firedBeat(npc: NPCID, beat: String)

    /// The event's kind as a word: `moved`, `tookItem`, `traded`...
    public var name: String {
        switch self {
        case .moved: "moved"
        case .tookItem: "tookItem"
        case .droppedItem: "droppedItem"
        case .gave: "gave"
        case .received: "received"
        case .paidGold: "paidGold"
        case .receivedGold: "receivedGold"
        case .traded: "traded"
        case .npcMoved: "npcMoved"
        case .setFlag: "setFlag"
        case .clearedFlag: "clearedFlag"
        case .changedCounter: "changedCounter"
        case .setCounter: "setCounter"
        case .changedAttitude: "changedAttitude"
        case .advancedQuest: "advancedQuest"
        case .firedBeat: "firedBeat"
        }
    }

    /// Whether the event changes only the story (flags, counters, attitudes, quests, beats), not the world or the
    /// player.
    public var isStoryEvent: Bool {
        switch self {
        case .setFlag, .clearedFlag, .changedCounter, .setCounter, .changedAttitude, .advancedQuest, .firedBeat: true
        default: false
        }
    }

    /// A readable line, for example `moved from market_square to smithy`.
    public var description: String {
        switch self {
        case .moved(let from, let to): "moved from \(from) to \(to)"
        case .tookItem(let item, let quantity, let from): "took \(quantity) × \(item) at \(from)"
        case .droppedItem(let item, let quantity, let at): "dropped \(quantity) × \(item) at \(at)"
        case .gave(let item, let quantity, let to): "gave \(quantity) × \(item) to \(to)"
        case .received(let item, let quantity, let from): "received \(quantity) × \(item) from \(from)"
        case .paidGold(let amount, let to): "paid \(amount) gold to \(to)"
        case .receivedGold(let amount, let from): "received \(amount) gold from \(from)"
        case .traded(let offer): "traded: \(offer)"
        case .npcMoved(let npc, let from, let to): "\(npc) moved from \(from) to \(to)"
        case .setFlag(let name): "set flag \(name)"
        case .clearedFlag(let name): "cleared flag \(name)"
        case .changedCounter(let name, let by): "changed counter \(name) by \(by)"
        case .setCounter(let name, let to): "set counter \(name) to \(to)"
        case .changedAttitude(let npc, let by): "changed the attitude of \(npc) by \(by)"
        case .advancedQuest(let quest, let to): "advanced quest \(quest) to \(to)"
        case .firedBeat(let npc, let beat): "fired beat \(beat) of \(npc)"
        }
    }
}
