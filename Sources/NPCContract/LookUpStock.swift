import GameWorld
import LanguageModels

/// `lookUpStock {"item"?}`: what the NPC sells and at what price, or one item of it.
public enum LookUpStock: NPCToolContract {
    /// `lookUpStock`.
    public static let tool = NPCTool.lookUpStock
    /// What the tool does, for models.
    public static let toolDescription =
        "Looks up what you have for sale and the prices. Give an item to look up just that one."

    /// The stock, or the one item asked for.
    public typealias Output = StockReport

    /// `{"item"?}`: the item to look up (its id, name or alias), or nothing for the whole stock.
    public struct Arguments: Generable, Hashable {
        /// The item to look up; `nil` for everything.
        public var item: String?

        /// Creates arguments.
        ///
        /// - Parameter item: The item to look up; `nil` for everything.
        public init(item: String? = nil) { self.item = item }

        /// `{"item": String?}`.
        public static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Arguments.self,
                properties: [
                    .init(
                        name: "item", description: "The item to look up; leave out for everything", type: String?.self)
                ])
        }

        /// `{"item"?}`.
        public var generatedContent: GeneratedContent {
            var builder = ContentBuilder()
            builder.add("item", item)
            return builder.content
        }

        /// Reads arguments.
        ///
        /// - Parameter content: The call's arguments.
        /// - Throws: `GeneratedContent.ParsingError` when `item` is not a string.
        public init(_ content: GeneratedContent) throws {
            item = try ContentReader(content, reading: Arguments.self).optionalString("item")
        }
    }
}
