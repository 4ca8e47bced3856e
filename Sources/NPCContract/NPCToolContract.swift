import GameWorld
import LanguageModels

/// One NPC tool's side of the contract between the engine and the models: the tool's name, what it does in the
/// words a model reads, its arguments (with the JSON Schema a model generates them by) and its output.
///
/// The engine's tools implement them (`Tool` with `Arguments` as the arguments and `Output` as what `call`
/// returns); models read the outputs back with `Output.init(_:)`. The JSON both sides see is documented in
/// `docs/npc-contract.md`.
public protocol NPCToolContract {
    /// The tool's arguments; `generationSchema` is the schema the tool's definition gives models.
    associatedtype Arguments: Generable & Hashable
    /// What the tool answers.
    associatedtype Output: ConvertibleToGeneratedContent & ConvertibleFromGeneratedContent & Sendable & Hashable

    /// The tool, by the name models call it by.
    static var tool: NPCTool { get }
    /// What the tool does and when to use it, for models.
    static var toolDescription: String { get }
}
