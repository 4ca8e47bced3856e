import GameWorld
import NPCContract

/// A refusal reason as the NPC says it, in the first person: what a reply's `{reasons}` holds.
///
/// The game's sentence is written for a model to read ("Mira Quickcoin just said the Brass Lantern costs 20 gold, but
/// the offer asks 22."); said by Mira it would be the game talking. The scripted model reads the reason's kind and
/// values from the tool's output (`ActionResult.reasons`, typed by `RefusalReason.details`) and says it as the NPC
/// would ("I said 20 gold for the Brass Lantern, and 20 it is."). A reason known only by its words is said as written.
enum SpokenRefusal {
    /// The NPC's words for a reason.
    ///
    /// - Parameters:
    ///   - reason: The reason.
    ///   - world: The world, for item names.
    /// - Returns: One sentence.
    static func line(for reason: RefusalReason, in world: World) -> String {
        switch reason {
        case .asksMoreThanQuoted(_, let item, let quoted, _):
            "I said \(quoted) gold for the \(item), and \(quoted) it is."
        case .paysLessThanQuoted(_, let item, let quoted, _):
            "I said I'd give \(quoted) gold for the \(item), and \(quoted) it is."
        case .neverPartsWith(_, let item): "The \(item) is not for sale."
        case .noSuchItem(let text), .noSuchTradeItem(let text): "I don't know any \"\(text)\"."
        case .noSuchNPC, .effectRefused: "That can't be done."
        case .unreadableOffer: "I've muddled the numbers. Ask me again."
        case .tradeRule(let rejection, let explanation): line(for: rejection, in: world) ?? explanation
        case .stated(let text): text
        }
    }

    /// The NPC's words for a trade rule's rejection; `nil` for the rare ones it has no words of its own for.
    static func line(for rejection: TradeRejection, in world: World) -> String? {
        switch rejection {
        case .npcDoesNotTrade: "I don't trade."
        case .emptyOffer: "That's no deal at all."
        case .negativeGold, .absurdGold, .invalidQuantity, .absurdQuantity: "Those numbers make no sense."
        case .unknownItem: "I don't know that thing."
        case .questItem(let item, let party):
            party == .npc
                ? "The \(world.name(of: item)) is not for sale." : "Keep your \(world.name(of: item)); it's not for trade."
        case .untradeableItem(let item, _): "The \(world.name(of: item)) isn't something I trade."
        case .npcLacksItem(_, let item, _, let available):
            available == 0
                ? "I've no \(world.name(of: item)) left." : "I've only \(available) \(world.name(of: item)) left."
        case .playerLacksItem(let item, _, let available):
            available == 0
                ? "You don't have any \(world.name(of: item))." : "You've only \(available) \(world.name(of: item))."
        case .npcNeverSells(_, let item): "The \(world.name(of: item)) is not for sale."
        case .npcDoesNotSell(_, _, let category): "I don't sell \(category)."
        case .npcDoesNotBuy(_, _, let category): "I don't buy \(category)."
        case .playerCannotPay(_, let available): "You've only \(available) gold."
        case .npcCannotPay(_, let gold, let available):
            "I haven't \(gold) gold to give; I've \(available)."
        case .goldLimitExceeded, .quantityLimitExceeded: "That's more than I can hold."
        case .priceOverflow: "Those numbers make no sense."
        case .priceOutsidePolicy(_, let minimum, _, _):
            // Net gold the player pays: the least the NPC takes, or (negative) the most it pays.
            minimum >= 0 ? "I can't go below \(minimum) gold." : "I can't pay more than \(-minimum) gold."
        case .unknownNPC, .npcNotPresent: nil
        }
    }
}
