/// A function the model can call to look something up or act in the game.
///
/// The session describes each tool to the model (name, description, parameters' schema). When the model asks for a
/// call, the session converts the generated arguments to `Arguments`, runs `call(arguments:)`, records the call
/// and its output in the transcript, and sends the output back to the model, until the model answers.
///
/// ```swift
/// struct LookUpStock: Tool {
///     let name = "lookUpStock"
///     let description = "Looks up whether the merchant has an item and its price."
///     struct Arguments: CodableGenerable {
///         var item: String
///         static var generationSchema: GenerationSchema {
///             GenerationSchema(type: Arguments.self, properties: [.init(name: "item", type: String.self)])
///         }
///     }
///     func call(arguments: Arguments) async throws -> String {
///         "The lantern costs 12 gold; 3 in stock."
///     }
/// }
/// ```
public protocol Tool<Arguments, Output>: Sendable {
    /// The arguments the model generates for a call.
    associatedtype Arguments: ConvertibleFromGeneratedContent
    /// What the tool returns: text, or a `Generable` value recorded as structured content.
    associatedtype Output: PromptRepresentable

    /// The tool's name, unique within a session; the model calls the tool by it.
    var name: String { get }
    /// What the tool does and when to use it, for the model.
    var description: String { get }
    /// The JSON Schema of the arguments.
    var parameters: GenerationSchema { get }
    /// Whether the tool's definition goes into the instructions entry (and so into every request).
    var includesSchemaInInstructions: Bool { get }

    /// Runs the tool.
    ///
    /// - Parameter arguments: The arguments the model generated.
    /// - Returns: The output the model receives.
    /// - Throws: Any error; the session stops the turn and rethrows it as `LanguageModelSession.ToolCallError`.
    func call(arguments: Arguments) async throws -> Output
}

extension Tool {
    /// The type's name.
    public var name: String { String(describing: Self.self) }

    /// `true`: the tool is described in the instructions.
    public var includesSchemaInInstructions: Bool { true }
}

extension Tool where Arguments: Generable {
    /// The schema of `Arguments`.
    public var parameters: GenerationSchema { Arguments.generationSchema }
}
