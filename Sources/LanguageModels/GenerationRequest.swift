import ParleyBasics

/// What a session asks a model backend for: the next step of a turn.
public struct GenerationRequest: Sendable {
    /// The conversation so far, ending with this turn's prompt and any tool calls and outputs of this turn. Its
    /// first entry, when it is `.instructions`, holds the instructions and the tool definitions.
    public var transcript: Transcript
    /// The tools the model may call now.
    public var tools: [Transcript.ToolDefinition]
    /// The schema the answer must follow, for guided generation; `nil` for free text.
    public var schema: GenerationSchema?
    /// Whether to describe the schema to the model in the prompt, besides constraining the output.
    public var includeSchemaInPrompt: Bool
    /// How to generate.
    public var options: GenerationOptions
    /// Values the caller gave with the turn for backends that read them (see `GenerationContext`); empty unless
    /// the caller gave some. Every request of a turn carries the turn's context.
    public var context: GenerationContext

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - transcript: The conversation so far, including this turn's prompt.
    ///   - tools: The tools the model may call.
    ///   - schema: The answer's schema, for guided generation.
    ///   - includeSchemaInPrompt: Whether to describe the schema in the prompt.
    ///   - options: How to generate.
    ///   - context: Values for backends that read them.
    public init(
        transcript: Transcript, tools: [Transcript.ToolDefinition] = [], schema: GenerationSchema? = nil,
        includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        context: GenerationContext = GenerationContext()
    ) {
        self.transcript = transcript
        self.tools = tools
        self.schema = schema
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.options = options
        self.context = context
    }

    /// The latest prompt entry of the transcript: what this turn asks.
    public var prompt: Transcript.Prompt? {
        for entry in transcript.reversed() {
            if case .prompt(let prompt) = entry { return prompt }
        }
        return nil
    }
}

/// What a model backend generated for one step of a turn.
public struct Generation: Sendable, Equatable {
    /// The step's result.
    public enum Output: Sendable, Equatable {
        /// A text answer (for guided generation, the JSON text of the answer).
        case text(String)
        /// A structured answer.
        case structure(GeneratedContent)
        /// Calls of tools the model wants run before it answers.
        case toolCalls([Transcript.ToolCall])
    }

    /// The result.
    public var output: Output
    /// The model's reasoning before the result, if it reported any.
    public var reasoning: String?
    /// Token counts and timings, if the backend reported them.
    public var usage: GenerationUsage?
    /// Identifiers of what the backend used to make this answer besides the model itself (for the scripted model,
    /// the dialogue rule that answered). The session records them, after the model's own id, in the response
    /// entry's `assetIDs`, so the transcript says what made each answer. Empty for most backends.
    public var assetIDs: [String]

    /// Creates a generation.
    ///
    /// - Parameters:
    ///   - output: Text, structured content or tool calls.
    ///   - reasoning: The model's reasoning, if any.
    ///   - usage: Token counts and timings, if known.
    ///   - assetIDs: What made the answer besides the model, if the backend says.
    public init(output: Output, reasoning: String? = nil, usage: GenerationUsage? = nil, assetIDs: [String] = []) {
        self.output = output
        self.reasoning = reasoning
        self.usage = usage
        self.assetIDs = assetIDs
    }

    /// The generation as the updates a stream would deliver.
    var updates: [GenerationUpdate] {
        var updates: [GenerationUpdate] = []
        if let reasoning { updates.append(.reasoning(reasoning)) }
        switch output {
        case .text(let text): updates.append(.text(text))
        case .structure(let content): updates.append(.text(content.jsonString))
        case .toolCalls(let calls): updates.append(.toolCalls(calls))
        }
        if !assetIDs.isEmpty { updates.append(.assetIDs(assetIDs)) }
        if let usage { updates.append(.usage(usage)) }
        return updates
    }
}

/// One piece of a streamed generation.
public enum GenerationUpdate: Sendable, Equatable {
    /// More text of the answer (for guided generation, more of its JSON).
    case text(String)
    /// More of the model's reasoning.
    case reasoning(String)
    /// Tool calls, complete, delivered once the model has finished generating them.
    case toolCalls([Transcript.ToolCall])
    /// Token counts and timings.
    case usage(GenerationUsage)
    /// Identifiers of what made the answer besides the model (see `Generation.assetIDs`); they add up.
    case assetIDs([String])
}

/// Token counts and timings of a generation, as a backend reports them.
public struct GenerationUsage: Sendable, Equatable, CustomStringConvertible {
    /// Tokens in the request.
    public var promptTokens: Int
    /// Of those, tokens the backend served from its prompt cache, if it said.
    public var cachedPromptTokens: Int?
    /// Tokens generated.
    public var completionTokens: Int
    /// Of those, tokens of the model's reasoning, if it said.
    public var reasoningTokens: Int?
    /// Seconds spent reading the prompt, if reported.
    public var promptSeconds: Double?
    /// Seconds spent generating, if reported.
    public var generationSeconds: Double?

    /// Creates usage figures.
    ///
    /// - Parameters:
    ///   - promptTokens: Tokens in the request.
    ///   - cachedPromptTokens: Tokens served from cache.
    ///   - completionTokens: Tokens generated.
    ///   - reasoningTokens: Of those, reasoning tokens.
    ///   - promptSeconds: Time reading the prompt.
    ///   - generationSeconds: Time generating.
    public init(
        promptTokens: Int, cachedPromptTokens: Int? = nil, completionTokens: Int, reasoningTokens: Int? = nil,
        promptSeconds: Double? = nil, generationSeconds: Double? = nil
    ) {
        self.promptTokens = promptTokens
        self.cachedPromptTokens = cachedPromptTokens
        self.completionTokens = completionTokens
        self.reasoningTokens = reasoningTokens
        self.promptSeconds = promptSeconds
        self.generationSeconds = generationSeconds
    }

    /// Adds another step's usage (token counts and times add; cached counts add when both are known).
    ///
    /// - Parameter other: The other step's usage.
    /// - Returns: The sum.
    public func adding(_ other: GenerationUsage) -> GenerationUsage {
        func sum(_ a: Double?, _ b: Double?) -> Double? { a.flatMap { a in b.map { a + $0 } } ?? a ?? b }
        return GenerationUsage(
            promptTokens: promptTokens.saturatingAdding(other.promptTokens),
            cachedPromptTokens: cachedPromptTokens.flatMap { a in
                other.cachedPromptTokens.map { a.saturatingAdding($0) }
            },
            completionTokens: completionTokens.saturatingAdding(other.completionTokens),
            reasoningTokens: reasoningTokens.flatMap { a in other.reasoningTokens.map { a.saturatingAdding($0) } }
                ?? reasoningTokens ?? other.reasoningTokens,
            promptSeconds: sum(promptSeconds, other.promptSeconds),
            generationSeconds: sum(generationSeconds, other.generationSeconds))
    }

    /// `prompt 120 (cached 100), completion 24`.
    public var description: String {
        let cached = cachedPromptTokens.map { " (cached \($0))" } ?? ""
        return "prompt \(promptTokens)\(cached), completion \(completionTokens)"
    }
}
