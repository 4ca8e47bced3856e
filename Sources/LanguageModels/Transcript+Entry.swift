import Foundation

extension Transcript {
    /// One step of a conversation.
    public enum Entry: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// What the model should be and do; the first entry of a session that has instructions.
        case instructions(Instructions)
        /// What the user (the player) said, with the options and response format of the request.
        case prompt(Prompt)
        /// Tools the model asked to call.
        case toolCalls(ToolCalls)
        /// The output of one tool call; its id is the id of the call it answers.
        case toolOutput(ToolOutput)
        /// What the model answered.
        case response(Response)
        /// The model's reasoning before it answered, for models that report it.
        case reasoning(Reasoning)
        /// An entry of a kind this version of Parley does not know (a role a newer Apple framework wrote), kept as it
        /// was read and written back unchanged. Models do not see it.
        case unknown(UnknownEntry)

        /// The entry's identifier.
        public var id: String {
            switch self {
            case .instructions(let value): value.id
            case .prompt(let value): value.id
            case .toolCalls(let value): value.id
            case .toolOutput(let value): value.id
            case .response(let value): value.id
            case .reasoning(let value): value.id
            case .unknown(let value): value.id
            }
        }

        /// The entry as readable text, for example `Response: Welcome, traveller!`.
        public var description: String {
            switch self {
            case .instructions(let value): value.description
            case .prompt(let value): value.description
            case .toolCalls(let value): value.description
            case .toolOutput(let value): value.description
            case .response(let value): value.description
            case .reasoning(let value): value.description
            case .unknown(let value): value.description
            }
        }

        /// The segments the entry holds (none for tool calls).
        public var segments: [Segment] {
            switch self {
            case .instructions(let value): value.segments
            case .prompt(let value): value.segments
            case .toolCalls: []
            case .toolOutput(let value): value.segments
            case .response(let value): value.segments
            case .reasoning(let value): value.segments
            case .unknown: []
            }
        }
    }

    /// A piece of an entry's content: text or structured content.
    public enum Segment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// Text.
        case text(TextSegment)
        /// Structured content, such as a guided-generation response or a structured tool output.
        case structure(StructuredSegment)
        /// A segment of a kind this version of Parley does not know (Apple 27's `attachment`, say), kept as it was
        /// read and written back unchanged. Models see no text in it.
        case unknown(UnknownSegment)

        /// The segment's identifier.
        public var id: String {
            switch self {
            case .text(let segment): segment.id
            case .structure(let segment): segment.id
            case .unknown(let segment): segment.id
            }
        }

        /// The segment's text, or its content as JSON for a structured segment.
        public var description: String { text }

        /// The text, or the structured content as compact JSON.
        var text: String {
            switch self {
            case .text(let segment): segment.content
            case .structure(let segment): segment.content.jsonString
            case .unknown: ""
            }
        }
    }

    /// A text segment.
    public struct TextSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The segment's identifier.
        public var id: String
        /// The text.
        public var content: String

        /// Creates a text segment.
        ///
        /// - Parameters:
        ///   - id: The identifier; a new UUID by default.
        ///   - content: The text.
        public init(id: String = RandomID.uuidString(), content: String) {
            self.id = id
            self.content = content
        }

        /// The text.
        public var description: String { content }
    }

    /// A segment of structured content, with the name of the type or tool it came from.
    public struct StructuredSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The segment's identifier.
        public var id: String
        /// The name of the type that was generated or of the tool that produced the content.
        public var source: String
        /// The content.
        public var content: GeneratedContent

        /// Creates a structured segment.
        ///
        /// - Parameters:
        ///   - id: The identifier; a new UUID by default.
        ///   - source: The generated type's or tool's name.
        ///   - content: The content.
        public init(id: String = RandomID.uuidString(), source: String, content: GeneratedContent) {
            self.id = id
            self.source = source
            self.content = content
        }

        /// `Source: {json}`.
        public var description: String { "\(source): \(content.jsonString)" }
    }
}

/// Joins segments' text for descriptions.
func describe(_ segments: [Transcript.Segment]) -> String {
    segments.map(\.text).joined(separator: "\n")
}
