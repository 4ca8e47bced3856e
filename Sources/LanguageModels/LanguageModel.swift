/// A model backend a `LanguageModelSession` talks to: the embedded scripted model, a mock, or a server.
///
/// The session owns the conversation; a backend is stateless per request. For each step of a turn the session
/// sends a `GenerationRequest` (the whole transcript, whose first entry holds the instructions and tool
/// definitions, the tools the model may call, the schema the answer must follow, and the options) and receives a
/// `Generation`: text, structured content, or tool calls. The session runs the tools, records every entry, and asks
/// again until the model answers.
///
/// A backend implements `generate(_:)`, and `streamGeneration(_:)` if it can stream; `contextSize` and
/// `tokenCount(for:)` so the session can refuse requests that cannot fit; and an identity (`id`, `version`) that
/// transcripts, feedback reports and recordings carry so output can be compared across models. What callers may ask
/// of it beyond a turn is declared here too, with defaults that fit most backends: whether it writes free text
/// (`writesFreeText`), how to remove its secrets from text (`redactingSecrets(in:)`), and whether it is a voice and a
/// planner together (`voicing`). Callers use these instead of asking which backend type they hold.
public protocol LanguageModel: Sendable {
    /// The model's identifier, for example `scripted` or `SmolLM2-135M-Instruct`.
    var id: String { get }
    /// The model's version, for example a content hash, a model file's revision or a server's build.
    var version: String { get }
    /// What the model can do.
    var capabilities: LanguageModelCapabilities { get }
    /// The model's context window in tokens: everything in a request and its response must fit.
    var contextSize: Int { get async throws }

    /// The context window when it is known without asking anyone (configured, or read from a server before), for
    /// callers that cannot wait; `nil` when only `contextSize` can tell. The default is `nil`; the scripted model and
    /// the mock know theirs, a server backend once it has asked its server.
    var knownContextSize: Int? { get }

    /// Whether the model can answer now (Apple's `SystemLanguageModel.availability`), without waiting: a server
    /// backend says what it last learnt of its server. The default is `.available`, for backends in the process.
    var availability: LanguageModelAvailability { get }

    /// Counts the tokens of transcript entries as the model would see them.
    ///
    /// - Parameter entries: Entries, for example a whole transcript.
    /// - Returns: The token count.
    /// - Throws: When the backend cannot count (for example, its server is down).
    func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int

    /// Counts the tokens a schema adds to a request.
    ///
    /// - Parameter schema: The schema.
    /// - Returns: The token count.
    /// - Throws: When the backend cannot count.
    func tokenCount(for schema: GenerationSchema) async throws -> Int

    /// Counts the tokens of a whole request, as the session checks it against `contextSize`.
    ///
    /// The default adds the transcript, the definitions of tools not already in its instructions, and the schema
    /// when it is included in the prompt.
    ///
    /// - Parameter request: The request.
    /// - Returns: The token count.
    /// - Throws: When the backend cannot count.
    func tokenCount(for request: GenerationRequest) async throws -> Int

    /// Generates the next step of a turn.
    ///
    /// - Parameter request: The conversation so far and what is asked.
    /// - Returns: Text, structured content or tool calls, with usage when the backend reports it.
    /// - Throws: `LanguageModelError` for the model's conditions (context, rate limits, refusals, ...), or the
    ///   backend's own errors (a server that cannot be reached).
    func generate(_ request: GenerationRequest) async throws -> Generation

    /// Streams the next step of a turn as it is generated.
    ///
    /// The default calls `generate(_:)` and delivers its result as one update.
    ///
    /// - Parameter request: The conversation so far and what is asked.
    /// - Returns: Updates: text and reasoning deltas, then tool calls or nothing more, and usage. The stream
    ///   throws what `generate(_:)` would; cancelling the consuming task stops the generation.
    func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Error>

    /// Prepares for a request, for example by loading a model or priming a server's prompt cache.
    ///
    /// - Parameter request: The request that will probably follow.
    func prewarm(for request: GenerationRequest) async

    /// Whether the model writes free text for any instructions and prompt, such as notes summing up a conversation.
    ///
    /// `true` by default, as for a language model. A backend that answers only from rules of its own says `false`
    /// (the scripted model, which plays an NPC from its content's dialogue rules): callers then make such text
    /// themselves instead of asking it. The engine's conversation trimming does, for its running summary.
    var writesFreeText: Bool { get }

    /// Text with the backend's secrets removed, for example its API key.
    ///
    /// For callers that keep or show text of their own making that may quote the backend (a failure's description
    /// in a recording or on screen). The backend still cleans its own errors and output; this makes sure. The
    /// default returns the text unchanged, for backends that hold no secrets (the scripted model, the mock);
    /// `OpenAICompatibleLanguageModel` removes its API key and any bearer token. (The engine also removes any
    /// bearer token itself, whatever the backend.)
    ///
    /// - Parameter text: The text.
    /// - Returns: The text without the backend's secrets.
    func redactingSecrets(in text: String) -> String

    /// The voice and the planner the model is made of, with how they share a turn, for a model that is such a pair;
    /// `nil` (the default) for any other.
    ///
    /// A caller that voices turns itself (Parley's game: grounded voicing, the first-words deadline) reads the pair
    /// here; a model that is one model has nothing to declare. See `ModelVoicing`.
    var voicing: ModelVoicing? { get }
}

// MARK: - Defaults

extension LanguageModel {
    /// `nil`: only `contextSize` knows.
    public var knownContextSize: Int? { nil }

    /// `.available`: a backend in the process can always answer.
    public var availability: LanguageModelAvailability { .available }

    /// Whether `availability` is `.available`.
    public var isAvailable: Bool { availability == .available }

    /// Text, tool calling and guided generation.
    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.toolCalling, .guidedGeneration])
    }

    /// Adds the transcript, tool definitions missing from its instructions, and the schema if it is in the prompt.
    public func tokenCount(for request: GenerationRequest) async throws -> Int {
        var count = try await tokenCount(for: request.transcript)
        let listed = Set(request.transcript.instructions?.toolDefinitions.map(\.name) ?? [])
        let unlisted = request.tools.filter { !listed.contains($0.name) }
        if !unlisted.isEmpty {
            count += try await tokenCount(for: [
                Transcript.Entry.instructions(.init(id: "", segments: [], toolDefinitions: unlisted))
            ])
        }
        if let schema = request.schema, request.includeSchemaInPrompt {
            count += try await tokenCount(for: schema)
        }
        return count
    }

    /// Delivers `generate(_:)`'s result as updates: reasoning, then text or tool calls, then usage.
    public func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let generation = try await generate(request)
                    for update in generation.updates { continuation.yield(update) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Does nothing.
    public func prewarm(for request: GenerationRequest) async {}

    /// `true`: a language model writes free text.
    public var writesFreeText: Bool { true }

    /// The text unchanged: the backend holds no secrets.
    public func redactingSecrets(in text: String) -> String { text }

    /// `nil`: the model is one model, not a voice and a planner.
    public var voicing: ModelVoicing? { nil }
}

// MARK: - Token-count overloads (Apple's 26.4 API)

extension LanguageModel {
    /// Counts the tokens of a prompt.
    ///
    /// - Parameter prompt: The prompt.
    /// - Returns: The token count of a prompt entry holding it.
    /// - Throws: When the backend cannot count.
    public func tokenCount(for prompt: some PromptRepresentable) async throws -> Int {
        try await tokenCount(for: [
            Transcript.Entry.prompt(.init(id: "", segments: prompt.promptRepresentation.segments))
        ])
    }

    /// Counts the tokens of instructions.
    ///
    /// - Parameter instructions: The instructions.
    /// - Returns: The token count of an instructions entry holding them.
    /// - Throws: When the backend cannot count.
    public func tokenCount(for instructions: Instructions) async throws -> Int {
        try await tokenCount(for: [
            Transcript.Entry.instructions(.init(id: "", segments: instructions.segments, toolDefinitions: []))
        ])
    }

    /// Counts the tokens of tool definitions.
    ///
    /// - Parameter tools: The tools.
    /// - Returns: The token count of an instructions entry holding only their definitions.
    /// - Throws: When the backend cannot count.
    public func tokenCount(for tools: [any Tool]) async throws -> Int {
        try await tokenCount(for: [
            Transcript.Entry.instructions(
                .init(id: "", segments: [], toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) }))
        ])
    }
}
