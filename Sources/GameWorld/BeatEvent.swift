/// Something that happened which beats may react to; the engine asks `NPC.beats(for:in:)` with one.
public enum BeatEvent: Hashable, Sendable, CustomStringConvertible {
    /// The player arrived where the NPC is.
    case arrive
    /// The player talks to the NPC for the first time.
    case firstTalk
    /// The player gave the NPC an item.
    case itemGiven(ItemID)
    /// The player accepted the NPC's offer.
    case tradeAccepted(TradeOffer)
    /// The player declined the NPC's offer.
    case tradeRefused(TradeOffer)
    /// A flag was set (by an effect) while the player was with the NPC.
    case flagSet(String)

    /// The beat event a game event is, for the NPCs concerned: `gave` is `itemGiven` (for the NPC given to),
    /// `setFlag` is `flagSet`, `moved` is `arrive` (for the NPCs where the player arrives).
    ///
    /// - Parameter event: An applied game event.
    /// - Returns: The beat event, or `nil` when beats do not react to that event.
    public init?(_ event: GameEvent) {
        switch event {
        case .gave(let item, _, _): self = .itemGiven(item)
        case .setFlag(let name): self = .flagSet(name)
        case .moved: self = .arrive
        default: return nil
        }
    }

    /// The trigger name that reacts to it: `arrive`, `itemGiven`...
    public var description: String {
        switch self {
        case .arrive: "arrive"
        case .firstTalk: "firstTalk"
        case .itemGiven(let item): "itemGiven(\(item))"
        case .tradeAccepted(let offer): "tradeAccepted(\(offer))"
        case .tradeRefused(let offer): "tradeRefused(\(offer))"
        case .flagSet(let name): "flagSet(\(name))"
        }
    }
}
