import GameWorld
import LanguageModels

/// `acceptGift {"item", "quantity"?}`: the NPC takes an item the player offered; the game may refuse.
public enum AcceptGift: NPCToolContract {
    /// `acceptGift`.
    public static let tool = NPCTool.acceptGift
    /// What the tool does, for models.
    public static let toolDescription = "Takes an item the player offers you as a gift."

    /// `accepted` with what happened in words, or `refused` with every reason.
    public typealias Output = ActionResult

    /// `{"item", "quantity"?}`: the item (the player's, by id, name or alias) and how many; the same arguments as
    /// `giveItem`'s, so the same schema.
    public typealias Arguments = GiveItem.Arguments
}
