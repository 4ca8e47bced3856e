import GameWorld
import LanguageModels
import NPCContract

/// A trade an NPC proposes in structured output: the `offerTrade` tool's arguments, one type for both.
///
/// Games that ask a model for offers with guided generation rather than through the tool generate
/// `OfferTrade.Arguments` and put it through ``Game/propose(_:from:)``:
///
/// ```swift
/// let offer = try await session.respond(to: "Make the player an offer", generating: OfferTrade.Arguments.self)
/// let decision = await game.propose(offer.content, from: "mira")
/// ```
@available(*, deprecated, renamed: "OfferTrade.Arguments", message: "The offerTrade tool's arguments are the proposal")
public typealias OfferProposal = OfferTrade.Arguments

/// What the game made of a proposed offer.
public enum OfferDecision: Sendable, Equatable {
    /// The offer is now pending, waiting for the player's answer.
    case pending(PendingOffer)
    /// The offer was refused, for these reasons (each in the words the model reads); a feedback report was filed.
    case refused(reasons: [String])
}

extension Game {
    /// Puts an offer an NPC proposed in structured output through the trade guard.
    ///
    /// Such an offer goes through the same trade guard as the `offerTrade` tool: it becomes the pending offer only
    /// if the rules allow it, and a refused one is reported.
    ///
    /// - Parameters:
    ///   - proposal: The offer.
    ///   - npc: The NPC who proposed it.
    /// - Returns: Pending, or refused with every reason (and then reported like a refused tool call).
    public func propose(_ proposal: OfferTrade.Arguments, from npc: NPCID) -> OfferDecision {
        let before = shared.read(\.refusedOffers.count)
        let toolbox = NPCToolbox(npc: npc, state: shared) { [shared] refusal in
            shared.update { $0.refusedOffers.append(refusal) }
        }
        let result = toolbox.review(proposal)
        for refusal in shared.read(\.refusedOffers).dropFirst(before) {
            if let report = refusalReport(refusal, npc: npc) { record(report) }
        }
        if let pending = pendingOffers[npc], result.status == .pending { return .pending(pending) }
        return .refused(reasons: result.reasons.map(\.message))
    }
}
