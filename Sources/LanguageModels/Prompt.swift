/// Input for a model: text and structured content, built from strings or with `@PromptBuilder`.
///
/// ```swift
/// let prompt = Prompt {
///     "The player asks about the lantern."
///     if haggling { "They want a lower price." }
/// }
/// ```
public struct Prompt: Sendable, Equatable, PromptRepresentable {
    /// The prompt's content as transcript segments; consecutive text parts are joined by newlines.
    public internal(set) var segments: [Transcript.Segment]

    /// Creates a prompt from anything that represents one.
    ///
    /// - Parameter content: A string, a `Generable` value, an array of them, or a prompt.
    public init(_ content: some PromptRepresentable) {
        self = content.promptRepresentation
    }

    /// Creates a prompt with a builder.
    ///
    /// - Parameter content: Statements that each produce a prompt part.
    /// - Throws: What `content` throws.
    public init(@PromptBuilder _ content: () throws -> Prompt) rethrows {
        self = try content()
    }

    /// Creates a prompt from transcript segments, for example text for the model beside structured content for
    /// a program that reads the transcript. (A Parley addition.)
    ///
    /// - Parameter segments: The prompt's segments.
    public init(segments: [Transcript.Segment]) {
        self.segments = segments
    }

    /// The prompt itself.
    public var promptRepresentation: Prompt { self }

    /// The text of the prompt's segments, structured ones as JSON, joined by newlines.
    var text: String { segments.map(\.text).joined(separator: "\n") }

    /// Joins parts into one prompt, merging neighbouring text into one segment.
    static func joining(_ parts: [[Transcript.Segment]]) -> [Transcript.Segment] {
        var result: [Transcript.Segment] = []
        for segment in parts.joined() {
            if case .text(let text) = segment, case .text(let previous)? = result.last {
                result[result.count - 1] = .text(
                    .init(id: previous.id, content: previous.content + "\n" + text.content))
            } else {
                result.append(segment)
            }
        }
        return result
    }
}

/// A type that can be used as a prompt.
public protocol PromptRepresentable {
    /// The value as a prompt.
    @PromptBuilder var promptRepresentation: Prompt { get }
}

/// Builds a `Prompt` from statements, as `Prompt { ... }` and `respond { ... }` do.
@resultBuilder
public struct PromptBuilder {
    /// Joins the parts of a block.
    public static func buildBlock(_ components: any PromptRepresentable...) -> Prompt {
        // A `Prompt` is taken as it is: asking it for its representation would build it again, forever.
        Prompt(segments: Prompt.joining(components.map { ($0 as? Prompt ?? $0.promptRepresentation).segments }))
    }

    /// Joins the parts produced by a loop.
    public static func buildArray(_ components: [Prompt]) -> Prompt {
        Prompt(segments: Prompt.joining(components.map(\.segments)))
    }

    /// The first branch of an `if`/`else`.
    public static func buildEither(first component: Prompt) -> Prompt { component }

    /// The second branch of an `if`/`else`.
    public static func buildEither(second component: Prompt) -> Prompt { component }

    /// An `if` without `else`: empty when the condition is false.
    public static func buildOptional(_ component: Prompt?) -> Prompt { component ?? Prompt(segments: []) }

    /// A part under `#available`.
    public static func buildLimitedAvailability(_ prompt: Prompt) -> Prompt { prompt }

    /// One statement's value.
    public static func buildExpression<P: PromptRepresentable>(_ expression: P) -> P { expression }

    /// A prompt statement.
    public static func buildExpression(_ expression: Prompt) -> Prompt { expression }
}

extension String: PromptRepresentable {
    /// The string as a text prompt.
    public var promptRepresentation: Prompt { Prompt(segments: [.text(Transcript.TextSegment(content: self))]) }
}

extension Array: PromptRepresentable where Element: PromptRepresentable {
    /// The elements' prompts joined.
    public var promptRepresentation: Prompt {
        Prompt(segments: Prompt.joining(map(\.promptRepresentation.segments)))
    }
}
