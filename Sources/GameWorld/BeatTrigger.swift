/// When a beat fires (`"on"` in a beat, with `"item"` or `"flag"` where it applies).
///
/// | `on`            | Fires when                                              | With                          |
/// |-----------------|---------------------------------------------------------|-------------------------------|
/// | `arrive`        | the player arrives where the NPC is                     |                               |
/// | `firstTalk`     | the player talks to the NPC for the first time          |                               |
/// | `itemGiven`     | the player gives the NPC an item                        | `item` (optional: any item)   |
/// | `tradeAccepted` | the player accepts the NPC's offer                      | `item` (optional: any offer)  |
/// | `tradeRefused`  | the player declines the NPC's offer                     | `item` (optional: any offer)  |
/// | `flagSet`       | a flag is set while the player is with the NPC          | `flag` (required)             |
public enum BeatTrigger: Hashable, Sendable, CustomStringConvertible {
    /// `arrive`: the player arrives where the NPC is.
    case arrive
    /// `firstTalk`: the player talks to the NPC for the first time.
    case firstTalk
    /// `itemGiven`: the player gives the NPC this item, or any item when `nil`.
    case itemGiven(ItemID?)
    /// `tradeAccepted`: the player accepts the NPC's offer involving this item, or any offer when `nil`.
    case tradeAccepted(ItemID?)
    /// `tradeRefused`: the player declines the NPC's offer involving this item, or any offer when `nil`.
    case tradeRefused(ItemID?)
    /// `flagSet`: this flag is set while the player is with the NPC.
    case flagSet(String)

    /// The `on` names, in the order of the table above.
    public static let names = ["arrive", "firstTalk", "itemGiven", "tradeAccepted", "tradeRefused", "flagSet"]

    /// The triggers that take an `item`.
    public static let namesWithItem = ["itemGiven", "tradeAccepted", "tradeRefused"]

    /// The trigger's `on` name.
    public var name: String {
        switch self {
        case .arrive: "arrive"
        case .firstTalk: "firstTalk"
        case .itemGiven: "itemGiven"
        case .tradeAccepted: "tradeAccepted"
        case .tradeRefused: "tradeRefused"
        case .flagSet: "flagSet"
        }
    }

    /// The item the trigger asks for, if any.
    public var item: ItemID? {
        switch self {
        case .itemGiven(let item), .tradeAccepted(let item), .tradeRefused(let item): item
        default: nil
        }
    }

    /// `itemGiven(moonpetal_locket)`, `arrive`.
    public var description: String {
        switch self {
        case .flagSet(let flag): "flagSet(\(flag))"
        default: item.map { "\(name)(\($0))" } ?? name
        }
    }

    /// Whether the trigger reacts to an event.
    ///
    /// - Parameter event: What happened.
    /// - Returns: `true` when the names match and so do the item or flag asked for; an offer matches an item
    ///   when either side gives some of it.
    public func matches(_ event: BeatEvent) -> Bool {
        func involves(_ offer: TradeOffer, _ item: ItemID?) -> Bool {
            guard let item else { return true }
            return (offer.playerGives.items + offer.npcGives.items).contains { $0.item == item }
        }
        switch (self, event) {
        case (.arrive, .arrive), (.firstTalk, .firstTalk): return true
        case (.itemGiven(let wanted), .itemGiven(let given)): return wanted == nil || wanted == given
        case (.tradeAccepted(let item), .tradeAccepted(let offer)): return involves(offer, item)
        case (.tradeRefused(let item), .tradeRefused(let offer)): return involves(offer, item)
        case (.flagSet(let wanted), .flagSet(let set)): return wanted == set
        default: return false
        }
    }
}
