import GameWorld
import LanguageModels
import NPCContract

/// What a flow found out for the reply: the item and numbers in play, and what the game answered. Each field
/// fills the placeholder of the same name; `nil` leaves it to the conversation, or empty.
struct ReplyFacts: Sendable {
    /// The item, when the catalog knows it.
    var item: ItemID?
    /// The item's name as the game or the player put it, when it is not a catalog item.
    var itemText: String?
    /// How many.
    var quantity: Int?
    /// The price in play: an offer's total or a unit's asking price.
    var price: Int?
    /// The lowest price for one unit.
    var lowest: Int?
    /// The stock the NPC listed.
    var stock: [StockReport.Line]?
    /// What the NPC would pay for the player's things: item, buy-back price of one.
    var appraisal: [(item: ItemID, price: Int)]?
    /// How many of the one appraised thing the player asked about ("what are two wedges of cheese worth to you?"),
    /// when more than one: the appraisal then names them and what they come to ("4 gold for your 2 × Wedge of
    /// Cheese").
    var appraisedQuantity: Int?
    /// How many the player asked about and what they come to (`pricedSeveral`).
    var total: (quantity: Int, price: Int)?
    /// The game's summary.
    var summary: String?
    /// The game's reasons for refusing.
    var reasons: [String]?
    /// Whether the game refused only because the price is below what the NPC takes: then a reply may say
    /// `{lowest}` instead of `{reasons}`; otherwise every reason must be said.
    var refusedOnlyForPrice = false
    /// The items the player may have meant.
    var choices: [ItemID]?
    /// What the NPC remembers of the conversation's past.
    var memory: String?
    /// The player's name for `{player}`, when known better than the game's (`name(given:conversation:)`).
    var playerName: String?

    /// The name the NPC calls the player: the one given in this turn's line ("call me Dax"), else the one the
    /// engine's facts remember (`ConversationFacts.playerCalled`, which survives trims and loads), else one given
    /// earlier in the transcript, else the game's.
    ///
    /// - Parameters:
    ///   - facts: The engine's facts, when the request carries them.
    ///   - scene: This turn: its line's name, and the transcript read.
    /// - Returns: The name, or `nil` when nothing says.
    static func name(given facts: ConversationFacts?, scene: Scene) -> String? {
        scene.nameGiven ?? facts?.playerCalled ?? scene.conversation.playerCalled ?? scene.conversation.playerName
    }

    /// The whole name the player gave, from the same place `name(given:scene:)` takes the name ("Hal Brightwater"
    /// where it says "Hal"), or `nil` when the player gave none in conversation (the game's name is no name they gave).
    ///
    /// - Parameters:
    ///   - facts: The engine's facts, when the request carries them.
    ///   - scene: This turn: its line's name, and the transcript read.
    /// - Returns: The whole name, or `nil`.
    static func fullName(given facts: ConversationFacts?, scene: Scene) -> String? {
        if let given = scene.fullNameGiven { return given }
        if let facts, let called = facts.playerCalled { return facts.playerFullName ?? called }
        if let called = scene.conversation.playerCalled { return scene.conversation.playerFullName ?? called }
        return nil
    }
    /// What the game answered to one of its actions (`{result}`, `{result.NAME}`).
    var result: GeneratedContent?
}
