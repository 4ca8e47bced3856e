/// One reason a trade offer is not acceptable, with the data to explain it.
///
/// `TradeRules.validate(_:in:)` returns every reason that applies, so a model proposing an offer can be told
/// all that is wrong with it at once. `description` is a terse form with ids (for logs and feedback reports);
/// `explanation(in:)` is a sentence with the names the player knows, for the model and the player.
public enum TradeRejection: Hashable, Sendable, Codable, CustomStringConvertible {
    /// No NPC has this id.
    case unknownNPC(npc: NPCID)
    /// The NPC is somewhere else than the player.
    case npcNotPresent(npc: NPCID, npcLocation: LocationID, playerLocation: LocationID)
    /// The NPC does not trade at all (its policy says `trades: false`).
    case npcDoesNotTrade(npc: NPCID)
    /// Neither side gives anything.
    case emptyOffer
    /// A side gives a negative amount of gold.
    case negativeGold(party: TradeParty, amount: Int)
    /// A side gives more gold than any trade may move (`TradeRules.maximumGold`).
    case absurdGold(party: TradeParty, amount: Int, limit: Int)
    /// The catalog has no item with this id.
    case unknownItem(item: ItemID, party: TradeParty)
    /// A quantity is zero or negative.
    case invalidQuantity(item: ItemID, quantity: Int, party: TradeParty)
    /// A quantity is above what any trade may move (`TradeRules.maximumQuantity`).
    case absurdQuantity(item: ItemID, quantity: Int, limit: Int, party: TradeParty)
    /// The item is a quest item; quest items are never bought or sold.
    case questItem(item: ItemID, party: TradeParty)
    /// The item is tagged `untradeable`.
    case untradeableItem(item: ItemID, party: TradeParty)
    /// The NPC does not carry as many of the item as the offer asks for (`available` may be 0).
    case npcLacksItem(npc: NPCID, item: ItemID, requested: Int, available: Int)
    /// The player does not carry as many of the item as the offer gives.
    case playerLacksItem(item: ItemID, requested: Int, available: Int)
    /// The item is one the NPC never parts with.
    case npcNeverSells(npc: NPCID, item: ItemID)
    /// The NPC does not sell items of this category.
    case npcDoesNotSell(npc: NPCID, item: ItemID, category: String)
    /// The NPC does not buy items of this category.
    case npcDoesNotBuy(npc: NPCID, item: ItemID, category: String)
    /// The player gives more gold than they have.
    case playerCannotPay(gold: Int, available: Int)
    /// The NPC gives more gold than it has.
    case npcCannotPay(npc: NPCID, gold: Int, available: Int)
    /// The trade would leave one side (the player, or the NPC `npc`) holding more gold than a purse holds
    /// (`GameLimits.maximumGold`): it has `held` and would end up `receiving` more.
    case goldLimitExceeded(party: TradeParty, npc: NPCID, held: Int, receiving: Int, limit: Int)
    /// The trade would leave one side holding more of an item than an inventory holds
    /// (`GameLimits.maximumQuantity`): it has `held` and would end up `receiving` more.
    case quantityLimitExceeded(party: TradeParty, npc: NPCID, item: ItemID, held: Int, receiving: Int, limit: Int)
    /// The items' prices add up to more gold than the game can count (only items whose value is far above
    /// `GameLimits.maximumItemValue`, which no content pack can hold, get there).
    case priceOverflow(npc: NPCID)
    /// The price is outside the NPC's policy. All amounts are the net gold the player pays the NPC (negative
    /// when the NPC pays the player): `minimum` is the least the NPC accepts, `asking` what it would ask, and
    /// `offered` what the offer gives it. See `TradeRules` for how they are computed.
    case priceOutsidePolicy(npc: NPCID, minimum: Int, asking: Int, offered: Int)

    /// The reason's kind as a word, for reports: `npcLacksItem`, `priceOutsidePolicy`...
    public var code: String {
        switch self {
        case .unknownNPC: "unknownNPC"
        case .npcNotPresent: "npcNotPresent"
        case .npcDoesNotTrade: "npcDoesNotTrade"
        case .emptyOffer: "emptyOffer"
        case .negativeGold: "negativeGold"
        case .absurdGold: "absurdGold"
        case .unknownItem: "unknownItem"
        case .invalidQuantity: "invalidQuantity"
        case .absurdQuantity: "absurdQuantity"
        case .questItem: "questItem"
        case .untradeableItem: "untradeableItem"
        case .npcLacksItem: "npcLacksItem"
        case .playerLacksItem: "playerLacksItem"
        case .npcNeverSells: "npcNeverSells"
        case .npcDoesNotSell: "npcDoesNotSell"
        case .npcDoesNotBuy: "npcDoesNotBuy"
        case .playerCannotPay: "playerCannotPay"
        case .npcCannotPay: "npcCannotPay"
        case .goldLimitExceeded: "goldLimitExceeded"
        case .quantityLimitExceeded: "quantityLimitExceeded"
        case .priceOverflow: "priceOverflow"
        case .priceOutsidePolicy: "priceOutsidePolicy"
        }
    }

    /// A terse form with ids, for example `npcLacksItem: mira has 0 × silver_sword, the offer asks for 1`.
    public var description: String {
        switch self {
        case .unknownNPC(let npc): "unknownNPC: no NPC \"\(npc)\""
        case .npcNotPresent(let npc, let npcLocation, let playerLocation):
            "npcNotPresent: \(npc) is at \(npcLocation), the player at \(playerLocation)"
        case .npcDoesNotTrade(let npc): "npcDoesNotTrade: \(npc) does not trade"
        case .emptyOffer: "emptyOffer: neither side gives anything"
        case .negativeGold(let party, let amount): "negativeGold: \(party) gives \(amount) gold"
        case .absurdGold(let party, let amount, let limit): "absurdGold: \(party) gives \(amount) gold, limit \(limit)"
        case .unknownItem(let item, let party): "unknownItem: \(party) gives unknown item \"\(item)\""
        case .invalidQuantity(let item, let quantity, let party):
            "invalidQuantity: \(party) gives \(quantity) × \(item)"
        case .absurdQuantity(let item, let quantity, let limit, let party):
            "absurdQuantity: \(party) gives \(quantity) × \(item), limit \(limit)"
        case .questItem(let item, let party): "questItem: \(party) gives quest item \(item)"
        case .untradeableItem(let item, let party): "untradeableItem: \(party) gives untradeable item \(item)"
        case .npcLacksItem(let npc, let item, let requested, let available):
            "npcLacksItem: \(npc) has \(available) × \(item), the offer asks for \(requested)"
        case .playerLacksItem(let item, let requested, let available):
            "playerLacksItem: the player has \(available) × \(item), the offer gives \(requested)"
        case .npcNeverSells(let npc, let item): "npcNeverSells: \(npc) never sells \(item)"
        case .npcDoesNotSell(let npc, let item, let category):
            "npcDoesNotSell: \(npc) does not sell \(category) (\(item))"
        case .npcDoesNotBuy(let npc, let item, let category):
            "npcDoesNotBuy: \(npc) does not buy \(category) (\(item))"
        case .playerCannotPay(let gold, let available):
            "playerCannotPay: the player gives \(gold) gold, has \(available)"
        case .npcCannotPay(let npc, let gold, let available):
            "npcCannotPay: \(npc) gives \(gold) gold, has \(available)"
        case .goldLimitExceeded(let party, let npc, let held, let receiving, let limit):
            "goldLimitExceeded: \(party == .player ? "the player" : npc.rawValue) has \(held) gold, would get "
                + "\(receiving) more, limit \(limit)"
        case .quantityLimitExceeded(let party, let npc, let item, let held, let receiving, let limit):
            "quantityLimitExceeded: \(party == .player ? "the player" : npc.rawValue) has \(held) × \(item), "
                + "would get \(receiving) more, limit \(limit)"
        case .priceOverflow(let npc): "priceOverflow: the price at \(npc)'s prices does not fit in an Int"
        case .priceOutsidePolicy(let npc, let minimum, let asking, let offered):
            "priceOutsidePolicy: \(npc) accepts at least \(minimum) (asks \(asking)), offered \(offered)"
        }
    }

    /// The reason as a sentence with the names the player knows, for example
    /// `Mira Quickcoin does not have a Silver Sword.`
    ///
    /// - Parameter world: The world the offer was judged in, for names.
    /// - Returns: One sentence ending with a full stop.
    public func explanation(in world: World) -> String {
        func item(_ id: ItemID) -> String { world.name(of: id) }
        func npc(_ id: NPCID) -> String { world.name(of: id) }
        func gives(_ party: TradeParty) -> String { party == .player ? "the player offers" : "the offer asks for" }
        switch self {
        case .unknownNPC(let id): return "There is no one called \"\(id)\" here."
        case .npcNotPresent(let id, let npcLocation, let playerLocation):
            return "\(npc(id)) is at \(world.name(of: npcLocation)), not at \(world.name(of: playerLocation))."
        case .npcDoesNotTrade(let id): return "\(npc(id)) does not trade."
        case .emptyOffer: return "The offer exchanges nothing."
        case .negativeGold(let party, let amount):
            return "Gold cannot be negative: \(gives(party)) \(amount) gold."
        case .absurdGold(let party, let amount, let limit):
            return "No trade can move more than \(limit) gold; \(gives(party)) \(amount)."
        case .unknownItem(let id, _): return "There is no such item as \"\(id)\"."
        case .invalidQuantity(let id, let quantity, _):
            return "A quantity must be at least 1, not \(quantity) (\(item(id)))."
        case .absurdQuantity(let id, let quantity, let limit, _):
            return "No trade can move more than \(limit) of an item; the offer has \(quantity) × \(item(id))."
        case .questItem(let id, _): return "\(item(id)) is a quest item; it can never be bought or sold."
        case .untradeableItem(let id, _): return "\(item(id)) cannot be bought or sold."
        case .npcLacksItem(let id, let itemID, let requested, let available):
            if available == 0 { return "\(npc(id)) has no \(item(itemID))." }
            return "\(npc(id)) has only \(available) × \(item(itemID)), not \(requested)."
        case .playerLacksItem(let itemID, let requested, let available):
            if available == 0 { return "The player has no \(item(itemID))." }
            return "The player has only \(available) × \(item(itemID)), not \(requested)."
        case .npcNeverSells(let id, let itemID): return "\(npc(id)) will never part with \(item(itemID))."
        case .npcDoesNotSell(let id, let itemID, let category):
            return "\(npc(id)) does not sell \(category) items such as \(item(itemID))."
        case .npcDoesNotBuy(let id, let itemID, let category):
            return "\(npc(id)) does not buy \(category) items such as \(item(itemID))."
        case .playerCannotPay(let gold, let available):
            return "The player offers \(gold) gold but has only \(available)."
        case .npcCannotPay(let id, let gold, let available):
            return "\(npc(id)) would have to pay \(gold) gold but has only \(available)."
        case .goldLimitExceeded(let party, let id, let held, let receiving, let limit):
            let who = party == .player ? "The player" : npc(id)
            return "\(who) has \(held) gold and cannot take \(receiving) more: a purse holds at most \(limit) gold."
        case .quantityLimitExceeded(let party, let id, let itemID, let held, let receiving, let limit):
            let who = party == .player ? "The player" : npc(id)
            return "\(who) has \(held) × \(item(itemID)) and cannot take \(receiving) more: "
                + "an inventory holds at most \(limit) of an item."
        case .priceOverflow(let id):
            return "These items are worth more gold than \(npc(id)) or anyone could count; no trade can pay for them."
        case .priceOutsidePolicy(let id, let minimum, let asking, let offered):
            let name = npc(id)
            let offer =
                offered >= 0 ? "the offer pays \(offered) gold" : "the offer asks \(name) to pay \(-offered) gold"
            if minimum >= 0 {
                return "\(name) asks \(asking) gold for this and accepts no less than \(minimum); \(offer)."
            }
            return "\(name) pays at most \(-minimum) gold for this; \(offer)."
        }
    }
}
