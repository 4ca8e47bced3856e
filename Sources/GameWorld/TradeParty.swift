/// A side of a trade: the player or the NPC they trade with.
public enum TradeParty: String, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The player.
    case player
    /// The NPC.
    case npc

    /// `player` or `npc`.
    public var description: String { rawValue }
}
