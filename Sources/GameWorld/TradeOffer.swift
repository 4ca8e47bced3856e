/// A proposed exchange between the player and one NPC: what each side gives.
///
/// An offer is only a proposal. `TradeRules.validate(_:in:)` says whether it is acceptable, and
/// `GameState.apply(.traded(offer:))` carries it out, atomically.
///
/// ```swift
/// // "Sell me the lantern for 20 gold."
/// let offer = TradeOffer.buying("lantern", from: "mira", for: 20)
/// ```
public struct TradeOffer: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The NPC the player trades with.
    public var npc: NPCID
    /// What the player gives the NPC.
    public var playerGives: TradeSide
    /// What the NPC gives the player.
    public var npcGives: TradeSide

    /// Creates an offer.
    ///
    /// - Parameters:
    ///   - npc: The NPC the player trades with.
    ///   - playerGives: What the player gives.
    ///   - npcGives: What the NPC gives.
    public init(npc: NPCID, playerGives: TradeSide = .nothing, npcGives: TradeSide = .nothing) {
        self.npc = npc
        self.playerGives = playerGives
        self.npcGives = npcGives
    }

    /// The player buys items from the NPC for gold.
    ///
    /// - Parameters:
    ///   - item: The item bought.
    ///   - quantity: How many, 1 by default.
    ///   - npc: The seller.
    ///   - gold: The total price the player pays.
    /// - Returns: The offer.
    public static func buying(_ item: ItemID, quantity: Int = 1, from npc: NPCID, for gold: Int) -> TradeOffer {
        TradeOffer(
            npc: npc, playerGives: TradeSide(gold: gold),
            npcGives: TradeSide(items: [ItemStack(item, quantity: quantity)]))
    }

    /// The player sells items to the NPC for gold.
    ///
    /// - Parameters:
    ///   - item: The item sold.
    ///   - quantity: How many, 1 by default.
    ///   - npc: The buyer.
    ///   - gold: The total price the NPC pays.
    /// - Returns: The offer.
    public static func selling(_ item: ItemID, quantity: Int = 1, to npc: NPCID, for gold: Int) -> TradeOffer {
        TradeOffer(
            npc: npc, playerGives: TradeSide(items: [ItemStack(item, quantity: quantity)]),
            npcGives: TradeSide(gold: gold))
    }

    private enum CodingKeys: String, CodingKey {
        case npc, playerGives, npcGives
    }

    /// Decodes an offer from `{"npc": "mira", "playerGives": {...}, "npcGives": {...}}`; a side left out gives
    /// nothing.
    ///
    /// - Throws: `DecodingError` when `npc` is missing or a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        npc = try container.decode(NPCID.self, forKey: .npc)
        playerGives = try container.decodeIfPresent(TradeSide.self, forKey: .playerGives) ?? .nothing
        npcGives = try container.decodeIfPresent(TradeSide.self, forKey: .npcGives) ?? .nothing
    }

    /// What `party` gives.
    ///
    /// - Parameter party: The player or the NPC.
    /// - Returns: That side of the offer.
    public func side(of party: TradeParty) -> TradeSide {
        switch party {
        case .player: playerGives
        case .npc: npcGives
        }
    }

    /// `player gives 20 gold; mira gives 1 × lantern`.
    public var description: String { "player gives \(playerGives); \(npc) gives \(npcGives)" }
}
