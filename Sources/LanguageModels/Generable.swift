/// A type that can be made from content a model generated.
///
/// Tool arguments and structured responses are read through this protocol.
public protocol ConvertibleFromGeneratedContent: SendableMetatype {
    /// Creates a value from generated content.
    ///
    /// - Parameter content: The content, usually a structure parsed from the model's JSON.
    /// - Throws: `GeneratedContent.ParsingError` (or another error) when the content does not fit the type.
    init(_ content: GeneratedContent) throws
}

/// A type that can be turned into generated content, and so into a prompt or instructions.
public protocol ConvertibleToGeneratedContent: InstructionsRepresentable, PromptRepresentable {
    /// The value as generated content; `init(_:)` of a `Generable` type must read it back.
    var generatedContent: GeneratedContent { get }
}

/// A type a model can generate: it has a schema, and converts to and from generated content.
///
/// Conformances are usually written by the `@Generable` macro, as in Apple's framework (docs/generable.md):
///
/// ```swift
/// @Generable(description: "A trade offer")
/// struct Offer {
///     var item: String
///     @Guide(.range(1...500))
///     var price: Int
/// }
/// ```
///
/// Where the macro's plugin is not built (a toolchain without SwiftSyntax in `lib/swift/host`), write the three
/// members by hand; for `Codable` types, `CodableGenerable` derives two of them:
///
/// ```swift
/// struct Offer: CodableGenerable {
///     var item: String
///     var price: Int
///     static var generationSchema: GenerationSchema {
///         GenerationSchema(type: Offer.self, description: "A trade offer", properties: [
///             .init(name: "item", type: String.self),
///             .init(name: "price", type: Int.self, guides: [.minimum(1)]),
///         ])
///     }
/// }
/// ```
///
/// Unlike Apple's, Parley's `Generable` refines `Sendable`: responses and stream snapshots cross tasks, and Swift 6
/// checks that they can. Structs of sendable values are sendable already; a `public` type says so explicitly.
public protocol Generable: ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent, Sendable {
    /// The type of the partial values a streamed response produces; by default the type itself, so a snapshot is
    /// delivered only once the partial content converts.
    associatedtype PartiallyGenerated: ConvertibleFromGeneratedContent & Sendable = Self

    /// The JSON Schema the model's output must follow.
    static var generationSchema: GenerationSchema { get }
}

extension Generable {
    /// The value as its partially generated type.
    ///
    /// - Returns: The value converted through its generated content.
    public func asPartiallyGenerated() -> PartiallyGenerated {
        // A complete value always converts to its own partial form.
        try! PartiallyGenerated(generatedContent)
    }
}

extension ConvertibleToGeneratedContent {
    /// The content as a prompt: a structured segment.
    public var promptRepresentation: Prompt {
        Prompt(segments: [.structure(Transcript.StructuredSegment(source: "\(Self.self)", content: generatedContent))])
    }

    /// The content as instructions: a structured segment.
    public var instructionsRepresentation: Instructions {
        Instructions(
            segments: [.structure(Transcript.StructuredSegment(source: "\(Self.self)", content: generatedContent))])
    }
}

extension GeneratedContent {
    /// The error thrown when generated content cannot be parsed or does not fit the type asked for.
    public struct ParsingError: Error, Sendable, CustomDebugStringConvertible, CustomStringConvertible {
        /// The raw text or JSON the model produced.
        public var rawContent: String
        /// What is wrong.
        public var debugDescription: String

        /// Creates a parsing error.
        ///
        /// - Parameters:
        ///   - rawContent: The model's raw output.
        ///   - debugDescription: What is wrong.
        public init(rawContent: String, debugDescription: String) {
            self.rawContent = rawContent
            self.debugDescription = debugDescription
        }

        /// What is wrong, with the start of the raw content.
        public var description: String {
            let excerpt = rawContent.count > 200 ? String(rawContent.prefix(200)) + "…" : rawContent
            return "The model's output could not be read: \(debugDescription) Output: \(excerpt)"
        }
    }
}
