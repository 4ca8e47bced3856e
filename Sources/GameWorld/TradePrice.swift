/// The money side of an offer as an NPC's policy sees it, in net gold the player pays the NPC.
///
/// Negative amounts mean the NPC pays the player. See `TradeRules` for how each is computed.
public struct TradePrice: Hashable, Sendable, Codable {
    /// The least the NPC accepts.
    public var minimum: Int
    /// What the NPC would ask (its own price for the same goods).
    public var asking: Int
    /// What the offer gives the NPC: the player's gold minus the NPC's gold.
    public var offered: Int

    /// Creates a price.
    ///
    /// - Parameters:
    ///   - minimum: The least the NPC accepts.
    ///   - asking: What the NPC would ask.
    ///   - offered: What the offer gives it.
    public init(minimum: Int, asking: Int, offered: Int) {
        self.minimum = minimum
        self.asking = asking
        self.offered = offered
    }

    /// Whether the offer pays at least the minimum.
    public var isAcceptable: Bool { offered >= minimum }
}
