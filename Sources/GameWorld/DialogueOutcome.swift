/// How a rule's intent or calls turned out, which chooses among a rule's replies (`DialogueRule.outcomes`).
///
/// Outcomes come from the NPC's actions (`NPCTool`) and their results in the game: an offer the game accepted as
/// pending or refused, an item the NPC does not have, a gift it took. One outcome is a situation rather than a
/// result: `offerPending`, when an offer is waiting for the player's answer while they talk about something else.
/// The game's own actions (`GameAction`) end in `answered`, `failed`, `unanswered`, `told` or `refused`.
public enum DialogueOutcome: String, Hashable, Sendable, Codable, CaseIterable, CodingKeyRepresentable,
    CustomStringConvertible
{
    /// The NPC looked up its whole stock (`{stock}` lists it).
    case listed
    /// The NPC looked up one item it sells (`{item}`, `{price}`, `{lowest}`, `{quantity}`).
    case priced
    /// The NPC looked up one item it sells for a player asking about several ("how much for 3 candles?"):
    /// `{total}` says what they come to, besides what `priced` has.
    case pricedSeveral
    /// The NPC does not have or sell the item asked for (`{item}`).
    case missing
    /// The NPC has nothing to sell.
    case empty
    /// The player's words could mean several items (`{choices}`).
    case ambiguous
    /// The player did not say which item, and nothing in the conversation tells.
    case noItem
    /// The model is not sure the player asked to trade ("two candles?", "I'd like some chese"): the NPC names the
    /// item it looked up (`{item}`, `{price}`, `{lowest}`, `{quantity}`; `{total}` for several) and asks whether
    /// that is what the player wants, making no offer. A yes then buys it.
    case clarify
    /// The game made the NPC's offer the pending offer (`{summary}`, `{item}`, `{price}`).
    case pending
    /// The game refused the NPC's offer or action (`{reasons}`).
    case refused
    /// The NPC looked over what the player carries and says what it would pay (`{appraisal}`).
    case appraised
    /// The player does not carry the item they want to sell or give.
    case notCarried
    /// The NPC does not buy the item, or anything the player has.
    case notWanted
    /// The NPC took the item the player offered as a gift (`acceptGift`).
    case accepted
    /// The NPC gave the player an item (`giveItem`).
    case given
    /// The NPC cannot do it here: it does not trade, or the game gave it no tool for it.
    case unavailable
    /// An offer is waiting for the player's answer (`{offer}`, `{item}`, `{price}`).
    case offerPending
    /// The NPC remembers what the player asked about (`{memory}`).
    case remembered
    /// There is nothing to remember: no trade, no offer, no earlier question.
    case forgotten
    /// The game answered one of its actions (`actions.json`) the NPC called (`{result}`).
    case answered
    /// The game answered one of its actions with an error (`{reasons}`).
    case failed
    /// The game did not answer one of its actions in time, or nothing answers it (no game listens).
    case unanswered
    /// The game was told of an action that does not wait for its answer.
    case told

    /// The outcome's name as written in content files.
    public var description: String { rawValue }
}
