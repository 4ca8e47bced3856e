import GameWorld
import ParleyEngine

// What an NPC did during an evaluation case's turn under test, to find unasked actions (see `EvalRunner`).

/// Where a game stood just before the turn under test: afterwards, what changed is what the turn did.
struct TurnMarks: Sendable {
    /// The game before the turn.
    let state: GameState
    /// How many turn recordings the game had made.
    let recordings: Int
    /// How many events had been applied.
    let events: Int
    /// How many offers the game had refused.
    let refused: Int
    /// The offer pending from the NPC under test, if any.
    let pending: PendingOffer?

    /// Marks where a game stands.
    ///
    /// - Parameters:
    ///   - game: The game.
    ///   - npc: The NPC under test.
    init(_ game: Game, npc: NPCID) async {
        state = await game.state
        recordings = await game.recordings.count
        events = await game.events.count
        refused = await game.refusedOffers.count
        pending = await game.pendingOffers[npc]
    }

    /// What the NPC did since the marks, in words: a new offer pending from it, each offer of its that the game
    /// refused, each item or gold it gave the player or took from them, each trade.
    ///
    /// - Parameters:
    ///   - game: The same game, after the turn.
    ///   - npc: The NPC under test.
    /// - Returns: One description per action, in the order they happened (offers last); empty when it did nothing.
    func actions(since game: Game, npc: NPCID) async -> [String] {
        let world = state.world
        var actions: [String] = []
        for event in await game.events.dropFirst(events) {
            switch event {
            case .received(let item, let quantity, let from) where from == npc:
                actions.append("gave \(quantity) × \(world.name(of: item))")
            case .receivedGold(let amount, let from) where from == npc:
                actions.append("gave \(amount) gold")
            case .gave(let item, let quantity, let to) where to == npc:
                actions.append("accepted \(quantity) × \(world.name(of: item))")
            case .paidGold(let amount, let to) where to == npc:
                actions.append("took \(amount) gold")
            case .traded(let offer) where offer.npc == npc:
                actions.append("traded: \(offer.summary(in: world))")
            default: break
            }
        }
        if let offer = await game.pendingOffers[npc], offer != pending {
            actions.append("offered: \(offer.summary)")
        }
        // An offer refused because the line was heard too unsurely to act on was held back, not made.
        for refusal in await game.refusedOffers.dropFirst(refused) where refusal.npc == npc && !refusal.unclearSpeech {
            let what = refusal.offer?.summary(in: world) ?? refusal.proposal
            actions.append("offered, refused by the game: \(what)")
        }
        return actions
    }
}
