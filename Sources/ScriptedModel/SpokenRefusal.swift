import GameWorld
import NPCContract

/// A refusal reason as the NPC says it, in the first person: what a reply's `{reasons}` holds.
///
/// The game's sentence is written for a model to read ("Mira Quickcoin just said the Brass Lantern costs 20 gold, but
/// the offer asks 22."); said by Mira it would be the game talking. The scripted model reads the reason's kind and
/// values from the tool's output (`ActionResult.reasons`, typed by `RefusalReason.details`) and says it as the NPC
/// would ("I said 20 gold for the Brass Lantern, and 20 it is."), in the NPC's language (the lexicon's `refusal…`
/// texts). A reason known only by its words is said as written.
enum SpokenRefusal {
    /// The NPC's words for a reason.
    ///
    /// - Parameters:
    ///   - reason: The reason.
    ///   - world: The world, for item names.
    /// - Returns: One sentence.
    static func line(for reason: RefusalReason, in world: World) -> String {
        // The NPC's lexicon (the model's world speaks it): its refusal texts.
        let lexicon = world.lexicon
        func say(_ key: Lexicon.Text, _ values: [String: String] = [:]) -> String { lexicon.text(key, values) }
        switch reason {
        case .asksMoreThanQuoted(_, let item, let quoted, _):
            return say(.refusalAsksMoreThanQuoted, ["item": item, "price": String(quoted)])
        case .paysLessThanQuoted(_, let item, let quoted, _):
            return say(.refusalPaysLessThanQuoted, ["item": item, "price": String(quoted)])
        case .neverPartsWith(_, let item): return say(.refusalNotForSale, ["item": item])
        case .noSuchItem(let text), .noSuchTradeItem(let text): return say(.refusalNoSuchItem, ["text": text])
        case .noSuchNPC, .effectRefused: return say(.refusalCannotBeDone)
        case .unreadableOffer: return say(.refusalMuddled)
        case .unclearSpeech(let heard): return say(.askAgainToAct, ["heard": heard])
        case .tradeRule(let rejection, let explanation): return line(for: rejection, in: world) ?? explanation
        case .stated(let text): return text
        }
    }

    /// The NPC's words for a trade rule's rejection; `nil` for the rare ones it has no words of its own for.
    static func line(for rejection: TradeRejection, in world: World) -> String? {
        let lexicon = world.lexicon
        func say(_ key: Lexicon.Text, _ values: [String: String] = [:]) -> String { lexicon.text(key, values) }
        func name(_ item: ItemID) -> [String: String] { ["item": world.name(of: item)] }
        switch rejection {
        case .npcDoesNotTrade: return say(.refusalDoesNotTrade)
        case .emptyOffer: return say(.refusalEmptyOffer)
        case .negativeGold, .absurdGold, .invalidQuantity, .absurdQuantity: return say(.refusalNonsense)
        case .unknownItem: return say(.refusalUnknownThing)
        case .questItem(let item, let party):
            return party == .npc ? say(.refusalNotForSale, name(item)) : say(.refusalKeepYours, name(item))
        case .untradeableItem(let item, _): return say(.refusalUntradeable, name(item))
        case .npcLacksItem(_, let item, _, let available):
            return available == 0
                ? say(.refusalNoneLeft, name(item))
                : say(.refusalOnlyLeft, name(item).merging(["quantity": String(available)]) { $1 })
        case .playerLacksItem(let item, _, let available):
            return available == 0
                ? say(.refusalPlayerHasNone, name(item))
                : say(.refusalPlayerHasOnly, name(item).merging(["quantity": String(available)]) { $1 })
        case .npcNeverSells(_, let item): return say(.refusalNotForSale, name(item))
        case .npcDoesNotSell(_, _, let category): return say(.refusalDoesNotSell, ["category": category])
        case .npcDoesNotBuy(_, _, let category): return say(.refusalDoesNotBuy, ["category": category])
        case .playerCannotPay(_, let available): return say(.refusalPlayerCannotPay, ["gold": String(available)])
        case .npcCannotPay(_, let gold, let available):
            return say(.refusalNPCCannotPay, ["price": String(gold), "gold": String(available)])
        case .goldLimitExceeded, .quantityLimitExceeded: return say(.refusalTooMuch)
        case .priceOverflow: return say(.refusalNonsense)
        case .priceOutsidePolicy(_, let minimum, _, _):
            // Net gold the player pays: the least the NPC takes, or (negative) the most it pays.
            return minimum >= 0
                ? say(.refusalBelowLowest, ["price": String(minimum)])
                : say(.refusalAboveHighest, ["price": String(-minimum)])
        case .unknownNPC, .npcNotPresent: return nil
        }
    }
}
