import GameWorld

/// A trade offer an NPC made that waits for the player's answer, as a save keeps it.
///
/// It mirrors the engine's pending offer: the trade and the sentence that showed it to the player.
public struct SavedOffer: Sendable, Hashable {
    /// The trade.
    public var offer: TradeOffer
    /// The offer in words, for example `Mira offers 1 Lantern for 20 gold.`
    public var summary: String

    /// Creates a saved offer.
    ///
    /// - Parameters:
    ///   - offer: The trade.
    ///   - summary: The offer in words.
    public init(offer: TradeOffer, summary: String) {
        self.offer = offer
        self.summary = summary
    }
}
