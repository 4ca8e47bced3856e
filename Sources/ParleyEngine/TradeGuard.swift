import Foundation
import GameWorld
import NPCContract

/// Every offer an NPC proposes passes here before it can become the pending offer.
///
/// The guard turns the model's proposal into a `TradeOffer` and checks it against the `TradeRules` the game was
/// made with (stock, purses, prices, quest and untradeable items, quantities, presence) and against what the NPC
/// itself just said: an NPC that quoted a price may not then ask more for the item when selling, or pay less when
/// buying. A refused offer changes nothing; the reasons go back to the model, so it can recover in voice, and into
/// a feedback report.
struct TradeGuard {
    /// The prices the NPC quoted in its last answer, per unit, by item.
    var quotes: [ItemID: Int]
    /// The rules trades follow: the ones the game was made with.
    var rules: TradeRules

    /// The guard's decision.
    enum Verdict {
        /// The offer may stand.
        case allowed(TradeOffer)
        /// The offer is refused: the trade (when the proposal named known items) and every reason.
        case refused(TradeOffer?, reasons: [RefusalReason])
    }

    /// Reviews a proposal: `sell` means the NPC sells `item` to the player for `price` gold in total, and for
    /// `partExchange` of the player's besides, when given (a swap); the rules weigh the whole exchange in net gold.
    func review(
        action: OfferTerms.Action, item itemText: String, quantity: Int, price: Int,
        partExchange: (item: String, quantity: Int)? = nil, npc npcID: NPCID, in state: GameState
    )
        -> Verdict
    {
        let world = state.world
        guard let npc = world.npcs[npcID] else { return .refused(nil, reasons: [.noSuchNPC(npcID)]) }
        let selling = action == .sell
        let holder = selling ? npc.inventory : state.player.inventory
        guard let item = world.item(named: itemText, preferring: holder) else {
            return .refused(nil, reasons: [.noSuchTradeItem(itemText)])
        }
        var offer = OfferTerms(action: action, item: item.id, quantity: quantity, price: price).tradeOffer(npc: npc.id)
        if let partExchange, selling {
            guard let given = world.item(named: partExchange.item, preferring: state.player.inventory) else {
                return .refused(nil, reasons: [.noSuchTradeItem(partExchange.item)])
            }
            offer.playerGives.items.append(ItemStack(given.id, quantity: partExchange.quantity))
        }
        var reasons = rules.validate(offer, in: state).rejections.map { RefusalReason.tradeRule($0, in: world) }
        if quantity == 1, let quoted = quotes[item.id] {
            if selling, price > quoted {
                reasons.append(.asksMoreThanQuoted(npc: npc.name, item: item.name, quoted: quoted, asked: price))
            } else if !selling, price < quoted {
                reasons.append(.paysLessThanQuoted(npc: npc.name, item: item.name, quoted: quoted, paid: price))
            }
        }
        return reasons.isEmpty ? .allowed(offer) : .refused(offer, reasons: reasons)
    }

    /// The per-unit prices an NPC quoted in its answer: in each sentence that names exactly one item (by name or
    /// alias) and one amount of gold, that amount for that item.
    static func quotes(in text: String, world: World) -> [ItemID: Int] {
        var quotes: [ItemID: Int] = [:]
        let sentences = text.split(whereSeparator: { ".!?;\n".contains($0) })
        let names = world.itemNames
        for sentence in sentences {
            // An item is mentioned when all the words of its name or of an alias appear in a row; the catalog's
            // name index finds them in time that follows the sentence, not the catalog.
            // The amounts first: most sentences name none, and then their items need not be looked for.
            let amounts = goldAmounts(in: sentence.lowercased())
            guard amounts.count == 1 else { continue }
            let mentioned = names.items(mentionedIn: sentence)
            if mentioned.count == 1 { quotes[mentioned[0]] = amounts[0] }
        }
        return quotes
    }

    /// The numbers followed by "gold" in a text: `25 gold`, `25 gold pieces`.
    static func goldAmounts(in text: String) -> [Int] {
        let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        var amounts: [Int] = []
        for (index, word) in words.enumerated() where index + 1 < words.count && words[index + 1] == "gold" {
            if let number = Int(word) { amounts.append(number) }
        }
        return amounts
    }
}
