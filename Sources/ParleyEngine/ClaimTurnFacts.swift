import GameWorld
import LanguageModels
import NPCContract

/// What counts as true for one turn besides the game state: the prices and quantities the turn's tool outputs gave,
/// the offers its outputs and events named, the pending offer, and the game's own sentences (refusal reasons) that
/// a line may repeat word for word.
///
/// Built from the turn's entries only, so its cost follows the turn, not the transcript.
struct ClaimTurnFacts {
    /// An offer's terms, for one item.
    struct Terms: Equatable {
        /// The item.
        var item: ItemID
        /// How many.
        var quantity: Int
        /// Gold for all of them.
        var price: Int
    }

    /// Per-unit prices the turn's stock reports gave, and unit prices of offers it named, by item.
    var prices: [ItemID: Set<Int>] = [:]
    /// Offers the turn's outputs and events named (made, accepted, declined), as terms.
    var offers: [Terms] = []
    /// Quantities the turn's stock reports gave, by item.
    var quantities: [ItemID: Int] = [:]
    /// The offer pending after the turn, when it is a single item for gold.
    var pending: Terms?
    /// Whether an offer from the NPC is pending after the turn, of whatever shape (a swap has no `pending` terms).
    var offerPending = false
    /// The game's own sentences in the turn's outputs: refusal reasons.
    var gameSentences: [String] = []

    /// Reads a turn.
    ///
    /// - Parameters:
    ///   - entries: The turn's entries.
    ///   - pendingOffer: The offer pending after the turn.
    ///   - npc: The NPC speaking.
    ///   - terms: Reads the terms an offer's summary states (the checker's own reading of a sentence).
    init(
        entries: [Transcript.Entry], pendingOffer: PendingOffer?, npc: NPCID,
        terms: (String) -> [Terms]
    ) {
        for entry in entries {
            switch entry {
            case .toolOutput(let output):
                switch NPCToolOutput(output) {
                case .stock(let report)?:
                    for line in report.lines {
                        prices[line.item, default: []].formUnion([line.price, line.lowestPrice])
                        quantities[line.item] = line.quantity
                    }
                case .action(let result)?:
                    gameSentences += result.reasons.map(\.message)
                    if !result.isRefused, let summary = result.summary { offers += terms(summary) }
                case .player?, nil: break
                }
            case .prompt(let prompt):
                switch prompt.witnessedEvent {
                case .offerAccepted(let summary)?, .offerDeclined(let summary)?: offers += terms(summary)
                default: break
                }
            default: break
            }
        }
        if let pendingOffer, pendingOffer.offer.npc == npc {
            pending = Self.terms(of: pendingOffer.offer)
            offerPending = true
        }
        for offer in offers + (pending.map { [$0] } ?? []) where offer.quantity > 0 && offer.price % offer.quantity == 0
        {
            prices[offer.item, default: []].insert(offer.price / offer.quantity)
        }
    }

    /// The terms of a trade of one kind of item for gold, either way.
    static func terms(of offer: TradeOffer) -> Terms? {
        if offer.npcGives.items.count == 1, offer.playerGives.items.isEmpty, offer.npcGives.gold == 0 {
            let stack = offer.npcGives.items[0]
            return Terms(item: stack.item, quantity: stack.quantity, price: offer.playerGives.gold)
        }
        if offer.playerGives.items.count == 1, offer.npcGives.items.isEmpty, offer.playerGives.gold == 0 {
            let stack = offer.playerGives.items[0]
            return Terms(item: stack.item, quantity: stack.quantity, price: offer.npcGives.gold)
        }
        return nil
    }
}
