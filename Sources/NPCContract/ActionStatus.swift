/// How the game answered an action an NPC asked for (`offerTrade`, `giveItem`, `acceptGift`).
///
/// It is the `status` member of an `ActionResult`, written as the case's name: `{"status": "pending", ...}`.
public enum ActionStatus: String, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// The offer passed the trade guard and waits for the player's answer (`offerTrade`).
    case pending
    /// The NPC gave the player the item (`giveItem`).
    case given
    /// The NPC took the item the player offered (`acceptGift`).
    case accepted
    /// The game refused; the result's reasons say why.
    case refused

    /// The status as written in the JSON: `pending`, `given`, `accepted` or `refused`.
    public var description: String { rawValue }
}
