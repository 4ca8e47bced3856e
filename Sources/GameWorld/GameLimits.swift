/// The largest amounts a game holds: in content packs (the checker refuses more), in the game state (events that
/// would go above them are refused), and in save games (a loader can refuse a save that holds more).
///
/// Every state change checks these before it adds, and adds with overflow-checked arithmetic, so no amount of
/// gold or items, however large, can crash the game: an event that would go above a maximum is refused with a
/// `GameEventError` (code `limitExceeded`), and a trade with a `TradeRejection`, and nothing changes.
///
/// ```swift
/// guard (0...GameLimits.maximumGold).contains(savedGold) else { throw damagedSave("gold \(savedGold)") }
/// ```
///
/// Story counters and attitudes have their own ranges, `StoryState.counterRange` and `StoryState.attitudeRange`.
public enum GameLimits {
    /// The most gold one purse holds (the player's, or an NPC's), and the most one side of a trade or one event
    /// may move: 1,000,000,000. Content gold (`gold`, `giveGold`, `playerGold`'s `atLeast`) is at most this.
    public static let maximumGold = 1_000_000_000

    /// The most of one item one inventory holds (the player's, an NPC's, a location's), and the most one trade
    /// or one event may move: 10,000. Content quantities are from 1 to this.
    public static let maximumQuantity = 10_000

    /// The most an item's base value may be, in gold: 1,000,000 (`value` in `items.json`).
    public static let maximumItemValue = 1_000_000

    /// The most gold the price of one offer may be (`price` in an `offer` effect, a pending offer's gold):
    /// the same as `maximumGold`, since a side of a trade gives at most that.
    public static let maximumPrice = maximumGold

    /// The total of `held` and `added`, when it fits within `limit` (and in an `Int`).
    ///
    /// - Parameters:
    ///   - held: What is held now.
    ///   - added: What would be added, at least 0.
    ///   - limit: The maximum, for example `maximumGold`.
    /// - Returns: The sum, or `nil` when it would go above `limit` or overflow.
    public static func sum(_ held: Int, adding added: Int, within limit: Int) -> Int? {
        let (total, overflow) = held.addingReportingOverflow(added)
        return overflow || total > limit ? nil : total
    }
}
