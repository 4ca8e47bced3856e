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

    /// `{"item", "quantity"?}`: the item (the player's, by id, name or alias) and how many.
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
