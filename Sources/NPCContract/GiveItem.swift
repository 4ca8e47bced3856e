import GameWorld
import LanguageModels

/// `giveItem {"item", "quantity"?}`: the NPC gives the player an item for free; the game may refuse.
public enum GiveItem: NPCToolContract {
    /// `giveItem`.
    public static let tool = NPCTool.giveItem
    /// What the tool does, for models.
    public static let toolDescription = "Gives the player one of your items for free."

    /// `given` with what happened in words, or `refused` with every reason.
    public typealias Output = ActionResult

    /// `{"item", "quantity"?}`: the item (by id, name or alias: the NPC's for `giveItem`, the player's for
    /// `acceptGift`, which takes the same arguments) and how many.
    public struct Arguments: Generable, Hashable {
        /// The item: its id, name or alias.
        public var item: String
        /// How many; 1 when left out.
        public var quantity: Int?

        /// Creates arguments.
        ///
        /// - Parameters:
        ///   - item: The item.
        ///   - quantity: How many; `nil` for 1.
        public init(item: String, quantity: Int? = nil) {
            self.item = item
            self.quantity = quantity
        }

        /// The schema: `item`, and `quantity` at least 1.
        public static var generationSchema: GenerationSchema {
            GenerationSchema(type: Arguments.self, properties: ItemArguments.schemaProperties)
        }

        /// `{"item", "quantity"?}`.
        public var generatedContent: GeneratedContent { ItemArguments.content(item: item, quantity: quantity) }

        /// Reads arguments.
        ///
        /// - Parameter content: The call's arguments.
        /// - Throws: `GeneratedContent.ParsingError` when `item` is missing or a member has the wrong type.
        public init(_ content: GeneratedContent) throws {
            (item, quantity) = try ItemArguments.read(content, as: Arguments.self)
        }
    }
}
