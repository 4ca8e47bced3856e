import GameWorld

/// One reason the game refused an action an NPC asked for, with the sentence the model reads.
///
/// The engine makes reasons by their kind; a tool's output carries each reason twice: as its `message` (the
/// sentence a language model reads) and as its `details` (the kind and values, so a model can voice the reason in
/// character). A reason read back from an output is typed again when its details read, `.stated(message)` when
/// only its words are known. Two reasons are equal when they say the same thing:
///
/// ```swift
/// RefusalReason.noSuchItem("unicorn").message    // There is no such item as "unicorn".
/// RefusalReason.noSuchItem("unicorn") == .stated("There is no such item as \"unicorn\".")   // true
/// ```
public enum RefusalReason: Sendable, Hashable, CustomStringConvertible {
    /// The offer names an NPC the world does not have: `There is no such NPC as tam.`
    case noSuchNPC(NPCID)
    /// A gift names an item the world does not have, in the model's words: `There is no such item as "unicorn".`
    case noSuchItem(String)
    /// An offer names an item the world does not have, in the model's words:
    /// `There is no such item as "unicorn" in this world.`
    case noSuchTradeItem(String)
    /// The NPC never parts with the item (its policy's `neverSells`), by the names the player knows:
    /// `Mira Quickcoin never parts with the Brass Scales.`
    case neverPartsWith(npc: String, item: String)
    /// A trade rule rejected the offer (`TradeRules`), with its explanation in the names the player knows.
    case tradeRule(TradeRejection, explanation: String)
    /// Selling, the offer asks more for one item than the NPC said it costs in its last answer:
    /// `Mira Quickcoin just said the Brass Lantern costs 20 gold, but the offer asks 24.`
    case asksMoreThanQuoted(npc: String, item: String, quoted: Int, asked: Int)
    /// Buying, the offer pays less for one item than the NPC offered in its last answer:
    /// `Brannoc just offered 8 gold for the Rusty Sword, but the offer pays 5.`
    case paysLessThanQuoted(npc: String, item: String, quoted: Int, paid: Int)
    /// The game could not apply the action's event (`GameState.apply`): the item is not there, a limit is
    /// reached... The message is the error's.
    case effectRefused(GameEventError)
    /// An offer whose terms cannot be read (an action other than `sell` or `buy`, no price, a word where a number
    /// belongs), with what was wrong: `The offer could not be read (expected "sell" or "buy", found "steal"). An
    /// offer needs an action, sell or buy, an item and a price.`
    case unreadableOffer(String)
    /// The player's line was spoken, and the speech recogniser was not sure enough of it for the NPC to act on it
    /// (below the acting bar, `HeardSpeech.minimumActingConfidence`): the NPC may answer it, but its offers, gifts and
    /// the game's actions are refused in that turn, and it asks the player to say it again. With what was heard:
    /// `The player's line was spoken, and the speech recogniser was not sure it heard it right ("buy rope"). Nothing
    /// was done: ask the player to say it again.`
    case unclearSpeech(heard: String)
    /// A reason known only by its words: as read back from a tool's output, or as a tool answered in plain text.
    case stated(String)

    /// A trade rule's rejection, explained with the names in a world.
    ///
    /// - Parameters:
    ///   - rejection: The rule's rejection.
    ///   - world: The world, for the names of the NPC and items.
    /// - Returns: `.tradeRule` with the rejection's explanation.
    public static func tradeRule(_ rejection: TradeRejection, in world: World) -> RefusalReason {
        .tradeRule(rejection, explanation: rejection.explanation(in: world))
    }

    /// The sentence the model reads.
    public var message: String {
        switch self {
        case .noSuchNPC(let npc): "There is no such NPC as \(npc)."
        case .noSuchItem(let text): "There is no such item as \"\(text)\"."
        case .noSuchTradeItem(let text): "There is no such item as \"\(text)\" in this world."
        case .neverPartsWith(let npc, let item): "\(npc) never parts with the \(item)."
        case .tradeRule(_, let explanation): explanation
        case .asksMoreThanQuoted(let npc, let item, let quoted, let asked):
            "\(npc) just said the \(item) costs \(quoted) gold, but the offer asks \(asked)."
        case .paysLessThanQuoted(let npc, let item, let quoted, let paid):
            "\(npc) just offered \(quoted) gold for the \(item), but the offer pays \(paid)."
        case .effectRefused(let error): error.message
        case .unreadableOffer(let detail):
            "The offer could not be read (\(detail)). An offer needs an action, sell or buy, an item and a price."
        case .unclearSpeech(let heard):
            "The player's line was spoken, and the speech recogniser was not sure it heard it right (\"\(heard)\"). "
                + "Nothing was done: ask the player to say it again."
        case .stated(let text): text
        }
    }

    /// The message.
    public var description: String { message }

    /// Whether two reasons say the same thing.
    public static func == (lhs: RefusalReason, rhs: RefusalReason) -> Bool { lhs.message == rhs.message }

    /// Hashes the message.
    public func hash(into hasher: inout Hasher) { hasher.combine(message) }
}
