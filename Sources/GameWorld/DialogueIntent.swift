/// What a player's line or a game event is about, as the scripted model reads it.
///
/// Dialogue rules (`DialogueRule`) name intents in `when.intent`. The scripted model finds one intent for each
/// prompt: from a game event the player caused (`gift`, `offerAccepted`...), or from what the player said, by the
/// priority documented in `docs/modding.md` (trade requests first, then greetings and farewells, then yes and no,
/// then small talk, then `unknown`).
///
/// Intents that trade or look things up have a built-in flow of NPC actions (`NPCTool`): `askPrice` looks the
/// item up, `buy` looks it up and offers it at the asking price, `sell` inspects the player and offers the
/// NPC's buy-back price, and so on. `possibleOutcomes` lists the outcomes the flow can end in.
public enum DialogueIntent: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    // MARK: Greetings and partings

    /// The player says hello, or arrives for the first time: the NPC's first words in the conversation.
    case greet
    /// The player says hello again, after the NPC has already spoken to them.
    case greetAgain
    /// The player comes back for another visit (the `arrived` event after an earlier conversation).
    case returning
    /// The player says goodbye, or leaves (the `left` event).
    case farewell
    /// The player thanks the NPC.
    case thanks

    // MARK: Trade

    /// The player asks what the NPC sells.
    case askStock
    /// The player asks what an item costs, or whether the NPC has it.
    case askPrice
    /// The player wants to buy an item ("I'll take the lantern").
    case buy
    /// The player names a price or asks for a better one ("would you take 20?", "too expensive").
    case haggle
    /// The player wants to sell the NPC something ("sell my rusty sword", "what would you pay for this?").
    case sell
    /// The player offers the NPC an item as a gift, in words ("here, take this bread").
    case offerGift

    // MARK: Answers and talk

    /// The player says yes, ok, deal.
    case yes
    /// The player says no, not now.
    case no
    /// The player asks who the NPC is or what it does.
    case introduce
    /// The player makes small talk: how are you, the weather, business.
    case smallTalk
    /// The player asks for news, gossip or rumours.
    case rumors
    /// The player asks about the conversation's past: their name, what they bought, sold or gave, what was
    /// agreed, what they asked, whether the NPC remembers them. Answered from the conversation's facts, which
    /// survive context trims (`ConversationFacts`).
    case recall
    /// Nothing else applies: the NPC does not follow.
    case unknown

    // MARK: Game events

    /// The player gave the NPC an item (the `gave` event).
    case gift
    /// The player accepted the NPC's pending offer (the `offerAccepted` event).
    case offerAccepted
    /// The player declined the NPC's pending offer (the `offerDeclined` event).
    case offerDeclined
    /// Any other game event the NPC witnesses.
    case gameEvent

    /// The intent's name as written in content files.
    public var description: String { rawValue }

    /// Whether the intent only ever comes from a game event, never from words.
    ///
    /// Rules without an intent never answer these.
    public var isGameEvent: Bool {
        switch self {
        case .returning, .gift, .offerAccepted, .offerDeclined, .gameEvent: true
        default: false
        }
    }

    /// The outcomes the intent's built-in flow can end in; a rule's `outcomes` may hold replies for these.
    ///
    /// Intents without a flow can only be in the `offerPending` situation (an offer is waiting for the player),
    /// except `greet` (nothing can be pending yet) and the offer events (which settle the offer).
    public var possibleOutcomes: [DialogueOutcome] {
        switch self {
        case .greet, .offerAccepted, .offerDeclined: []
        case .askStock: [.listed, .empty, .unavailable]
        case .askPrice: [.priced, .pricedSeveral, .missing, .listed, .empty, .ambiguous, .unavailable]
        // `priced`: the player cannot pay, so the NPC names its price instead of making an offer.
        // `clarify`: the model is not sure the line asked to buy, so the NPC names the item and asks.
        case .buy: [.pending, .refused, .priced, .clarify, .missing, .ambiguous, .noItem, .unavailable]
        case .haggle: [.pending, .refused, .missing, .ambiguous, .noItem, .notCarried, .notWanted, .unavailable]
        case .sell: [.pending, .refused, .appraised, .notCarried, .notWanted, .ambiguous, .unavailable]
        case .offerGift: [.accepted, .refused, .ambiguous, .noItem, .unavailable]
        case .recall: [.remembered, .forgotten, .offerPending]
        case .greetAgain, .returning, .farewell, .thanks, .yes, .no, .introduce, .smallTalk, .rumors, .unknown, .gift,
            .gameEvent:
            [.offerPending]
        }
    }
}
