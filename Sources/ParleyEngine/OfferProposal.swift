import GameWorld
import LanguageModels
import NPCContract

/// A trade an NPC proposes in structured output, for games that ask a model for offers with guided generation
/// rather than through the `offerTrade` tool:
///
/// ```swift
/// let proposal = try await session.respond(to: "Make the player an offer", generating: OfferProposal.self).content
/// let decision = await game.propose(proposal, from: "mira")
/// ```
///
/// Such an offer goes through the same trade guard as the tool: it becomes the pending offer only if the rules
/// allow it, and a refused one is reported.
public struct OfferProposal: CodableGenerable, Equatable {
    /// `.sell` (the NPC sells to the player) or `.buy` (the NPC buys from the player).
    public var action: OfferTerms.Action
    /// The item's id, name or alias.
    public var item: String
    /// How many; 1 when left out.
    public var quantity: Int?
    /// Gold for all of them together.
    public var price: Int

    /// Creates a proposal.
    ///
    /// - Parameters:
    ///   - action: `.sell` or `.buy`.
    ///   - item: The item.
    ///   - quantity: How many.
    ///   - price: Gold in total.
    public init(action: OfferTerms.Action, item: String, quantity: Int? = nil, price: Int) {
        self.action = action
        self.item = item
        self.quantity = quantity
        self.price = price
    }

    /// The same properties as the `offerTrade` tool's arguments (`OfferTrade.Arguments`): a model chooses the
    /// action among `sell` and `buy`.
    public static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: OfferProposal.self, description: "A trade offer to the player",
            properties: OfferTrade.Arguments.schemaProperties)
    }
}

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
    /// - Parameters:
    ///   - proposal: The offer.
    ///   - npc: The NPC who proposed it.
    /// - Returns: Pending, or refused with every reason (and then reported like a refused tool call).
    public func propose(_ proposal: OfferProposal, from npc: NPCID) -> OfferDecision {
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
