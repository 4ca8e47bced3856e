/// The rules every trade between the player and an NPC must pass.
///
/// `validate(_:in:)` checks an offer against the game state and the NPC's `TradePolicy` and returns
/// `.accepted` or `.rejected` with **every** reason that applies, in this order:
///
/// 1. The NPC exists (`unknownNPC`; nothing else is checked without it), is at the player's location
///    (`npcNotPresent`) and trades at all (`npcDoesNotTrade`).
/// 2. The offer exchanges something (`emptyOffer`).
/// 3. Gold on each side, player first: not negative (`negativeGold`), at most `maximumGold` (`absurdGold`).
/// 4. Items on each side, player first, in the offer's order. Each line: quantity at least 1
///    (`invalidQuantity`), item in the catalog (`unknownItem`). Lines naming the same item are then added up
///    and each item checked once: total at most `maximumQuantity` (`absurdQuantity`), not a quest item
///    (`questItem`) or `untradeable` (`untradeableItem`), the giver has enough (`playerLacksItem`,
///    `npcLacksItem`); and, if the NPC trades, the NPC does not keep it (`npcNeverSells`) and sells
///    (`npcDoesNotSell`) or buys (`npcDoesNotBuy`) its category.
/// 5. Each side has the gold it gives (`playerCannotPay`, `npcCannotPay`).
/// 6. Neither side would hold more than `GameLimits` allows afterwards: gold, player first
///    (`goldLimitExceeded`), then each item, player first, the NPC's items first (`quantityLimitExceeded`).
/// 7. The price, when the NPC trades and every gold amount and item line is valid (`priceOutsidePolicy`, or
///    `priceOverflow` when the prices do not fit in an `Int`).
///
/// ## The price
/// All amounts are net gold the player pays the NPC, computed with `TradePolicy`'s per-unit prices:
/// - `minimum` = Σ lowest price × quantity over items the NPC gives − Σ buy-back price × quantity over items
///   the player gives;
/// - `asking` = the same with the asking price instead of the lowest price;
/// - `offered` = gold the player gives − gold the NPC gives.
///
/// The offer is acceptable when `offered ≥ minimum`. So a smith who sells a sword of value 40 with
/// `minimumPriceRatio` 1.2 refuses "the sword for 1 gold" (minimum 48, asking 60, offered 1), and one who buys
/// daggers of value 20 at `buyBackRate` 0.5 refuses to pay 15 for one (minimum −10, offered −15). Barter works
/// the same way: the player's items count at the NPC's buy-back price.
///
/// An accepted trade is applied by `GameState.apply(.traded(offer:))`, all at once; items and gold only move.
/// Every amount is computed with overflow-checked arithmetic, so no offer, however absurd, can crash the game.
public struct TradeRules: Hashable, Sendable {
    /// The most of one item a single trade or event may move; more is "absurd". Default
    /// `GameLimits.maximumQuantity` (10,000).
    public var maximumQuantity: Int
    /// The most gold one side of a trade may give; more is "absurd". Default `GameLimits.maximumGold`
    /// (1,000,000,000).
    public var maximumGold: Int

    /// Rules with these limits. Whatever they are, no purse or inventory is let go above `GameLimits`.
    ///
    /// - Parameters:
    ///   - maximumQuantity: The most of one item a trade may move.
    ///   - maximumGold: The most gold one side may give.
    public init(maximumQuantity: Int = GameLimits.maximumQuantity, maximumGold: Int = GameLimits.maximumGold) {
        self.maximumQuantity = maximumQuantity
        self.maximumGold = maximumGold
    }

    /// The rules with the default limits, which `GameState.apply(_:)` uses.
    public static let standard = TradeRules()

    /// Judges an offer against the game state and the NPC's policy.
    ///
    /// - Parameters:
    ///   - offer: The proposed exchange.
    ///   - state: The current game state.
    /// - Returns: `.accepted`, or `.rejected` with every reason, in the order described on `TradeRules`.
    public func validate(_ offer: TradeOffer, in state: GameState) -> TradeVerdict {
        let world = state.world
        let player = state.player
        guard let npc = world.npcs[offer.npc] else { return .rejected([.unknownNPC(npc: offer.npc)]) }
        var reasons: [TradeRejection] = []
        if npc.location != player.location {
            reasons.append(.npcNotPresent(npc: npc.id, npcLocation: npc.location, playerLocation: player.location))
        }
        let trades = npc.trade.trades
        if !trades { reasons.append(.npcDoesNotTrade(npc: npc.id)) }
        if offer.playerGives.isEmpty && offer.npcGives.isEmpty {
            reasons.append(.emptyOffer)
            return .rejected(reasons)
        }

        var priceable = true
        for party in [TradeParty.player, .npc] {
            let gold = offer.side(of: party).gold
            if gold < 0 {
                reasons.append(.negativeGold(party: party, amount: gold))
                priceable = false
            } else if gold > maximumGold {
                reasons.append(.absurdGold(party: party, amount: gold, limit: maximumGold))
                priceable = false
            }
        }

        var totals: [TradeParty: [(item: Item, quantity: Int)]] = [:]
        for party in [TradeParty.player, .npc] {
            let (items, linesValid) = checkLines(
                offer.side(of: party).items, party: party, world: world, into: &reasons)
            priceable = priceable && linesValid
            for (item, quantity) in items {
                if quantity > maximumQuantity {
                    reasons.append(
                        .absurdQuantity(item: item.id, quantity: quantity, limit: maximumQuantity, party: party))
                    priceable = false
                    continue
                }
                if item.isQuestItem { reasons.append(.questItem(item: item.id, party: party)) }
                if item.tags.contains(.untradeable) { reasons.append(.untradeableItem(item: item.id, party: party)) }
                switch party {
                case .player:
                    let held = player.inventory.quantity(of: item.id)
                    if held < quantity {
                        reasons.append(.playerLacksItem(item: item.id, requested: quantity, available: held))
                    }
                    if trades, !npc.trade.buys.contains(item.category) {
                        reasons.append(.npcDoesNotBuy(npc: npc.id, item: item.id, category: item.category))
                    }
                case .npc:
                    let held = npc.inventory.quantity(of: item.id)
                    if held < quantity {
                        reasons.append(.npcLacksItem(npc: npc.id, item: item.id, requested: quantity, available: held))
                    }
                    if trades, npc.trade.neverSells.contains(item.id) {
                        reasons.append(.npcNeverSells(npc: npc.id, item: item.id))
                    }
                    if trades, !npc.trade.sells.contains(item.category) {
                        reasons.append(.npcDoesNotSell(npc: npc.id, item: item.id, category: item.category))
                    }
                }
            }
            totals[party] = items
        }

        let playerGold = offer.playerGives.gold
        if playerGold > 0, playerGold <= maximumGold, playerGold > player.gold {
            reasons.append(.playerCannotPay(gold: playerGold, available: player.gold))
        }
        let npcGold = offer.npcGives.gold
        if npcGold > 0, npcGold <= maximumGold, npcGold > npc.gold {
            reasons.append(.npcCannotPay(npc: npc.id, gold: npcGold, available: npc.gold))
        }

        // What each side would hold afterwards: never more than a purse or an inventory holds.
        let goldValid = (0...maximumGold).contains(playerGold) && (0...maximumGold).contains(npcGold)
        if goldValid {
            for (party, held, net) in [
                (TradeParty.player, player.gold, npcGold - playerGold), (.npc, npc.gold, playerGold - npcGold),
            ] where net > 0 && GameLimits.sum(held, adding: net, within: GameLimits.maximumGold) == nil {
                reasons.append(
                    .goldLimitExceeded(
                        party: party, npc: npc.id, held: held, receiving: net, limit: GameLimits.maximumGold))
            }
        }
        var netItems: [TradeParty: [ItemID: Int]] = [.player: [:], .npc: [:]]
        var order: [ItemID] = []
        for (giver, receiver) in [(TradeParty.npc, TradeParty.player), (.player, .npc)] {
            for (item, quantity) in totals[giver] ?? [] where quantity <= maximumQuantity {
                if netItems[.player]?[item.id] == nil && netItems[.npc]?[item.id] == nil { order.append(item.id) }
                netItems[receiver, default: [:]][item.id, default: 0] += quantity
                netItems[giver, default: [:]][item.id, default: 0] -= quantity
            }
        }
        for party in [TradeParty.player, .npc] {
            let inventory = party == .player ? player.inventory : npc.inventory
            for item in order {
                guard let net = netItems[party]?[item], net > 0 else { continue }
                let held = inventory.quantity(of: item)
                if GameLimits.sum(held, adding: net, within: GameLimits.maximumQuantity) == nil {
                    reasons.append(
                        .quantityLimitExceeded(
                            party: party, npc: npc.id, item: item, held: held, receiving: net,
                            limit: GameLimits.maximumQuantity))
                }
            }
        }

        if trades, priceable {
            if let price = Self.price(
                npcGives: totals[.npc] ?? [], playerGives: totals[.player] ?? [], offered: playerGold - npcGold,
                policy: npc.trade)
            {
                if !price.isAcceptable {
                    reasons.append(
                        .priceOutsidePolicy(
                            npc: npc.id, minimum: price.minimum, asking: price.asking, offered: price.offered))
                }
            } else {
                reasons.append(.priceOverflow(npc: npc.id))
            }
        }
        return reasons.isEmpty ? .accepted : .rejected(reasons)
    }

    /// The price of an offer under the NPC's policy, whether or not the offer is otherwise valid.
    ///
    /// - Parameters:
    ///   - offer: The proposed exchange.
    ///   - world: The world with the NPC and the item catalog.
    /// - Returns: The minimum, asking and offered net gold; `nil` when the NPC or an item is unknown, a
    ///   quantity or gold amount is out of range, or the amounts do not fit in an `Int`.
    public func price(of offer: TradeOffer, in world: World) -> TradePrice? {
        guard let npc = world.npcs[offer.npc] else { return nil }
        var sides: [TradeParty: [(item: Item, quantity: Int)]] = [:]
        for party in [TradeParty.player, .npc] {
            let side = offer.side(of: party)
            guard side.gold >= 0, side.gold <= maximumGold else { return nil }
            var ignored: [TradeRejection] = []
            let (items, valid) = checkLines(side.items, party: party, world: world, into: &ignored)
            guard valid, items.allSatisfy({ $0.quantity <= maximumQuantity }) else { return nil }
            sides[party] = items
        }
        return Self.price(
            npcGives: sides[.npc] ?? [], playerGives: sides[.player] ?? [],
            offered: offer.playerGives.gold - offer.npcGives.gold, policy: npc.trade)
    }

    // MARK: - Helpers

    /// Checks each line's quantity and item, and adds up valid lines per item in first-seen order.
    private func checkLines(
        _ lines: [ItemStack], party: TradeParty, world: World, into reasons: inout [TradeRejection]
    ) -> (items: [(item: Item, quantity: Int)], allValid: Bool) {
        var order: [ItemID] = []
        var quantities: [ItemID: Int] = [:]
        var allValid = true
        for line in lines {
            if line.quantity <= 0 {
                reasons.append(.invalidQuantity(item: line.item, quantity: line.quantity, party: party))
                allValid = false
            }
            guard world.items[line.item] != nil else {
                if !reasons.contains(.unknownItem(item: line.item, party: party)) {
                    reasons.append(.unknownItem(item: line.item, party: party))
                }
                allValid = false
                continue
            }
            guard line.quantity > 0 else { continue }
            if quantities[line.item] == nil { order.append(line.item) }
            // Capped so that adding up many lines cannot overflow; anything above the cap is rejected anyway.
            quantities[line.item] = min((quantities[line.item] ?? 0) + min(line.quantity, Int.max / 4), Int.max / 2)
        }
        return (order.map { (world.items[$0]!, quantities[$0]!) }, allValid)
    }

    /// Computes minimum, asking and offered net gold with overflow-checked arithmetic; `nil` when an amount does
    /// not fit in an `Int` (item values far beyond `GameLimits.maximumItemValue`).
    private static func price(
        npcGives: [(item: Item, quantity: Int)], playerGives: [(item: Item, quantity: Int)], offered: Int,
        policy: TradePolicy
    ) -> TradePrice? {
        var minimum = 0
        var asking = 0
        /// `total + unit × quantity`, or `nil` on overflow.
        func adding(_ total: Int, _ unit: Int?, _ quantity: Int, negated: Bool = false) -> Int? {
            guard let unit else { return nil }
            let (amount, productOverflow) = unit.multipliedReportingOverflow(by: quantity)
            let (sum, sumOverflow) =
                negated ? total.subtractingReportingOverflow(amount) : total.addingReportingOverflow(amount)
            return productOverflow || sumOverflow ? nil : sum
        }
        for (item, quantity) in npcGives {
            guard
                let newMinimum = adding(
                    minimum, policy.minimumPriceRatio.checkedApplied(to: item.value, roundingUp: true), quantity),
                let newAsking = adding(
                    asking, policy.sellMarkup.checkedApplied(to: item.value, roundingUp: true), quantity)
            else { return nil }
            (minimum, asking) = (newMinimum, newAsking)
        }
        for (item, quantity) in playerGives {
            let paid = policy.buyBackRate.checkedApplied(to: item.value, roundingUp: false)
            guard let newMinimum = adding(minimum, paid, quantity, negated: true),
                let newAsking = adding(asking, paid, quantity, negated: true)
            else { return nil }
            (minimum, asking) = (newMinimum, newAsking)
        }
        return TradePrice(minimum: minimum, asking: asking, offered: offered)
    }
}
