/// A value a dialogue reply can mention, written `{name}` in the reply: `"The {item}? {price} gold, friend."`.
///
/// The scripted model fills placeholders from the conversation and the game's answers. It only uses a reply
/// variant whose placeholders all have a value, so a reply mentioning `{player}` is skipped when the NPC does not
/// know the player's name.
public enum DialoguePlaceholder: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The player's name.
    case player
    /// The NPC's name.
    case npc
    /// The name of the place where they talk.
    case location
    /// The player's gold, as the NPC last saw it.
    case gold
    /// The item the line, event or offer is about, by its name (in tool-call arguments: its id).
    case item
    /// How many of the item.
    case quantity
    /// The price in play: an offer's total, or the asking price of one unit.
    case price
    /// The lowest price the NPC accepts for one unit.
    case lowest
    /// The NPC's stock with prices: `Brass Lantern (25 gold) and Coil of Rope (8 gold, 2 in stock)`.
    case stock
    /// The categories the NPC buys: `curios, clothing and food`.
    case buys
    /// What the NPC would pay for the player's things: `Rusty Sword (8 gold) and Old Coin (4 gold)`; for one thing,
    /// `8 gold for your Rusty Sword`.
    case appraisal
    /// What as many of an item as the player asked about cost: `12 gold for 2 × Mutton Pie` (`pricedSeveral`).
    case total
    /// The game's own summary of an offer, gift or event: `Mira offers 1 Brass Lantern for 25 gold.`
    case summary
    /// Why the game refused an offer or action, in its words.
    case reasons
    /// The summary of the offer waiting for the player's answer.
    case offer
    /// The items the player's words could mean: `Short Sword or Silver Sword`.
    case choices
    /// The number the player said.
    case number
    /// What the NPC remembers of the conversation that the player asked about (`recall`): "You bought 1 Brass
    /// Lantern from me for 20 gold."
    case memory
    /// What the game answered to one of its actions the NPC called (`answered`): the output when it is a string, a
    /// number or a Boolean. `{result.NAME}` is one member of an object output (`{result.gate.name}` goes deeper).
    case result

    /// The placeholder as written in replies, `{item}`.
    public var description: String { "{\(rawValue)}" }
}
