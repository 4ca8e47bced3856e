/// The one rule by which models that cannot tokenize count tokens: `ScriptedModel`, `MockLanguageModel`, an
/// OpenAI-compatible server without `/tokenize` (`OpenAICompatibleLanguageModel`'s fallback), and stand-ins
/// such as `parley-bench`'s.
///
/// - Text: one token per 4 UTF-8 bytes, rounded up (`tokens(inText:)`); English prose runs at about 4 bytes a
///   token in the tokenizers of the models Parley is tested with, so the estimate is near for English and errs
///   high for text with many multi-byte characters, which is the safe side for refusing a request that cannot fit.
/// - An entry or chat message: `perMessage` (4) for the role and the template around it, plus the text of its
///   segments (structured segments as their JSON), tool definitions (name, description and parameters' JSON
///   schema) and tool calls (name and arguments' JSON).
/// - A schema: its JSON schema's text.
///
/// ```swift
/// TokenEstimate.tokens(inText: "Ten gold.")   // 3
/// TokenEstimate.tokens(in: transcript)          // 4 per entry plus its text
/// ```
public enum TokenEstimate {
    /// The tokens counted for each entry or message beside its text: its role and the chat template around it.
    public static let perMessage = 4

    /// The UTF-8 bytes counted as one token: 4.
    public static let bytesPerToken = 4

    /// One token per 4 UTF-8 bytes, rounded up.
    ///
    /// - Parameter text: The text.
    /// - Returns: The estimate; 0 for empty text.
    public static func tokens(inText text: String) -> Int { tokens(inBytes: text.utf8.count) }

    /// The tokens of a text of this many UTF-8 bytes: one per `bytesPerToken`, rounded up.
    ///
    /// - Parameter count: The text's length in UTF-8 bytes.
    /// - Returns: The estimate; 0 for none.
    public static func tokens(inBytes count: Int) -> Int { (max(0, count) + bytesPerToken - 1) / bytesPerToken }

    /// The UTF-8 bytes that this many tokens hold, by the same rule: the budget in text for a budget in tokens.
    ///
    /// - Parameter tokens: A number of tokens.
    /// - Returns: `tokens × bytesPerToken`.
    public static func bytes(inTokens tokens: Int) -> Int { tokens * bytesPerToken }

    /// A segment's tokens: those of its text or JSON; none for a segment of an unknown kind, which no model sees.
    ///
    /// - Parameter segment: The segment.
    /// - Returns: The estimate.
    public static func tokens(in segment: Transcript.Segment) -> Int {
        switch segment {
        case .text(let text): tokens(inText: text.content)
        case .structure(let structure): tokens(inText: structure.content.jsonString)
        case .unknown: 0
        }
    }

    /// An entry's tokens: `perMessage` plus its segments, tool definitions or tool calls.
    ///
    /// - Parameter entry: The entry.
    /// - Returns: The estimate.
    public static func tokens(in entry: Transcript.Entry) -> Int {
        var count = perMessage + entry.segments.reduce(0) { $0 + tokens(in: $1) }
        switch entry {
        case .instructions(let instructions):
            for tool in instructions.toolDefinitions {
                count += tokens(inText: tool.name + tool.description + tool.parameters.jsonSchema.jsonString())
            }
        case .toolCalls(let calls):
            for call in calls { count += tokens(inText: call.toolName + call.arguments.jsonString) }
        default:
            break
        }
        return count
    }

    /// Entries' tokens: the sum of each entry's.
    ///
    /// - Parameter entries: The entries.
    /// - Returns: The estimate.
    public static func tokens(in entries: some Collection<Transcript.Entry>) -> Int {
        entries.reduce(0) { $0 + tokens(in: $1) }
    }

    /// A schema's tokens: those of its JSON schema's text.
    ///
    /// - Parameter schema: The schema.
    /// - Returns: The estimate.
    public static func tokens(in schema: GenerationSchema) -> Int { tokens(inText: schema.jsonSchema.jsonString()) }
}
