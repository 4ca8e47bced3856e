import GameWorld
import LanguageModels

/// `inspectPlayer {}`: the player's name and gold, what they carry, and what the NPC would pay for it.
public enum InspectPlayer: NPCToolContract {
    /// `inspectPlayer`.
    public static let tool = NPCTool.inspectPlayer
    /// What the tool does, for models.
    public static let toolDescription = "Looks at what the player carries and how much gold they have."

    /// The player, with names and buy-back prices.
    public typealias Output = PlayerReport

    /// `{}`: the tool takes no arguments (and ignores any it is given).
    public struct Arguments: Generable, Hashable {
        /// Creates arguments.
        public init() {}

        /// An object with no properties.
        public static var generationSchema: GenerationSchema {
            GenerationSchema(type: Arguments.self, properties: [])
        }

        /// `{}`.
        public var generatedContent: GeneratedContent { ContentBuilder().content }

        /// Reads arguments: anything will do.
        ///
        /// - Parameter content: The call's arguments.
        public init(_ content: GeneratedContent) {}
    }
}
