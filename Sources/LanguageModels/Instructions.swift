/// What a session's model should be and do, given once at the start of the conversation.
///
/// ```swift
/// let session = LanguageModelSession(model: model, instructions: Instructions {
///     "You are Mira, a merchant in Eastmarch."
///     "Be brief and friendly."
/// })
/// ```
public struct Instructions: Sendable, Equatable, InstructionsRepresentable {
    /// The instructions' content as transcript segments; consecutive text parts are joined by newlines.
    public internal(set) var segments: [Transcript.Segment]

    /// Creates instructions from anything that represents them.
    ///
    /// - Parameter content: A string, a `Generable` value, an array of them, or instructions.
    public init(_ content: some InstructionsRepresentable) {
        self = content.instructionsRepresentation
    }

    /// Creates instructions with a builder.
    ///
    /// - Parameter content: Statements that each produce a part.
    /// - Throws: What `content` throws.
    public init(@InstructionsBuilder _ content: () throws -> Instructions) rethrows {
        self = try content()
    }

    /// Creates instructions from transcript segments. (A Parley addition.)
    ///
    /// - Parameter segments: The instructions' segments.
    public init(segments: [Transcript.Segment]) {
        self.segments = segments
    }

    /// The instructions themselves.
    public var instructionsRepresentation: Instructions { self }
}

/// A type that can be used as instructions.
public protocol InstructionsRepresentable {
    /// The value as instructions.
    @InstructionsBuilder var instructionsRepresentation: Instructions { get }
}

/// Builds `Instructions` from statements.
@resultBuilder
public struct InstructionsBuilder {
    /// Joins the parts of a block.
    public static func buildBlock(_ components: any InstructionsRepresentable...) -> Instructions {
        // `Instructions` are taken as they are: asking for their representation would build them again, forever.
        Instructions(
            segments: Prompt.joining(components.map { ($0 as? Instructions ?? $0.instructionsRepresentation).segments })
        )
    }

    /// Joins the parts produced by a loop.
    public static func buildArray(_ components: [Instructions]) -> Instructions {
        Instructions(segments: Prompt.joining(components.map(\.segments)))
    }

    /// The first branch of an `if`/`else`.
    public static func buildEither(first component: Instructions) -> Instructions { component }

    /// The second branch of an `if`/`else`.
    public static func buildEither(second component: Instructions) -> Instructions { component }

    /// An `if` without `else`: empty when the condition is false.
    public static func buildOptional(_ component: Instructions?) -> Instructions {
        component ?? Instructions(segments: [])
    }

    /// A part under `#available`.
    public static func buildLimitedAvailability(_ instructions: Instructions) -> Instructions { instructions }

    /// One statement's value.
    public static func buildExpression<I: InstructionsRepresentable>(_ expression: I) -> I { expression }

    /// An instructions statement.
    public static func buildExpression(_ expression: Instructions) -> Instructions { expression }
}

extension String: InstructionsRepresentable {
    /// The string as text instructions.
    public var instructionsRepresentation: Instructions {
        Instructions(segments: [.text(Transcript.TextSegment(content: self))])
    }
}

extension Array: InstructionsRepresentable where Element: InstructionsRepresentable {
    /// The elements' instructions joined.
    public var instructionsRepresentation: Instructions {
        Instructions(segments: Prompt.joining(map(\.instructionsRepresentation.segments)))
    }
}
