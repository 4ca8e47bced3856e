import LanguageModels

/// How a language-model server plays an NPC (`--voice`): `grounded` or `free`. Declared in `LanguageModels` as
/// `ModelVoicing.Mode`, since the `ModelVoicing` a model declares carries it.
public typealias VoiceMode = ModelVoicing.Mode

/// An NPC's model when a language-model server plays it: the server (the *voice*) together with the embedded
/// scripted model (the *planner*), which answers whenever the server cannot answer in time or truthfully.
///
/// To the NPC's session it is one `LanguageModel`: in `grounded` mode every step of a turn is the planner's, and
/// the game then has the voice say the planned reply (see `Game`'s voicing, docs/model-servers.md, "Grounded
/// voicing"); in `free` mode every step is the voice's, and the planner answers a turn whose first words miss
/// `firstWordsDeadline`. Its `id` and `version` are the voice's, so transcripts, recordings and reports name the
/// model the player hears; each turn's recording says which of the two made the line (`TurnRecording.voicing`).
///
/// ```swift
/// let server = try await OpenAICompatibleLanguageModel.connect(.init(baseURL: "http://127.0.0.1:8080/v1"))
/// let game = Game(state: pack.initialState) { npc, world in
///     VoicedModel(voice: server, planner: ScriptedModel(npc: npc, world: world, seed: 1), mode: .grounded)
/// }
/// ```
public struct VoicedModel: LanguageModel {
    /// The default time the player waits for an NPC's first words before the planned line answers.
    public static let defaultFirstWordsDeadline: Duration = .seconds(2)
    /// The default most sentences of a voiced line.
    public static let defaultSentenceBudget = 3
    /// The tokens a voiced line may take per sentence (its `maximumResponseTokens`).
    public static let tokensPerSentence = 40

    /// The voice, the planner and their settings, as the game reads them (`voicing`).
    private let pair: ModelVoicing

    /// The language-model server that speaks.
    public var voice: any LanguageModel { pair.voice }
    /// The scripted model that plans the turn, and answers when the voice cannot.
    public var planner: any LanguageModel { pair.planner }
    /// How the voice plays the NPC.
    public var mode: VoiceMode { pair.mode }
    /// How long the player waits for the NPC's first words, from the start of the turn: a voice whose first checked
    /// sentence (grounded and free) would come later is dropped and the planned line answers; the sentences after
    /// the first may take until the turn's time limit.
    public var firstWordsDeadline: Duration { pair.firstWordsDeadline }
    /// The most sentences a voiced line may have; a longer one is cut after them.
    public var sentenceBudget: Int { pair.sentenceBudget }

    /// Pairs a voice with a planner.
    ///
    /// - Parameters:
    ///   - voice: The language-model server.
    ///   - planner: The scripted model for the same NPC.
    ///   - mode: `grounded` (the default) or `free`.
    ///   - firstWordsDeadline: How long the first words may take (2 s by default; at least 1 ms).
    ///   - sentenceBudget: The most sentences of a voiced line (3 by default; at least 1).
    public init(
        voice: any LanguageModel, planner: any LanguageModel, mode: VoiceMode = .grounded,
        firstWordsDeadline: Duration = defaultFirstWordsDeadline, sentenceBudget: Int = defaultSentenceBudget
    ) {
        pair = ModelVoicing(
            voice: voice, planner: planner, mode: mode, firstWordsDeadline: firstWordsDeadline,
            sentenceBudget: sentenceBudget)
    }

    /// The voice and the planner, with the mode, the first-words deadline and the sentence budget: what the game
    /// reads to voice the NPC's turns (never `nil`).
    public var voicing: ModelVoicing? { pair }

    /// The planner's `id@version`, as recordings name it.
    public var plannerName: String { pair.plannerName }

    /// The model that takes the session's steps: the planner in `grounded` mode, the voice in `free` mode.
    public var acting: any LanguageModel { pair.acting }

    /// The voice's id: the model the player hears.
    public var id: String { voice.id }
    /// The voice's version.
    public var version: String { voice.version }
    /// What the acting model can do; never `inProcess`, since the voice is a server.
    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities(acting.capabilities.capabilities.subtracting([.inProcess]))
    }
    /// The acting model's context window.
    public var contextSize: Int {
        get async throws { try await acting.contextSize }
    }
    /// The acting model's context window, if it is known without waiting.
    public var knownContextSize: Int? { acting.knownContextSize }
    /// The voice's availability, or the acting model's when the voice can answer: both must.
    public var availability: LanguageModelAvailability {
        let voiced = voice.availability
        return voiced == .available ? acting.availability : voiced
    }
    /// Whether the acting model writes free text (the planner does not: the engine writes its summaries itself).
    public var writesFreeText: Bool { acting.writesFreeText }

    /// Counts tokens as the acting model would.
    ///
    /// - Parameter entries: Transcript entries.
    /// - Returns: The token count.
    /// - Throws: When the acting model cannot count.
    public func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        try await acting.tokenCount(for: entries)
    }

    /// Counts a schema's tokens as the acting model would.
    ///
    /// - Parameter schema: The schema.
    /// - Returns: The token count.
    /// - Throws: When the acting model cannot count.
    public func tokenCount(for schema: GenerationSchema) async throws -> Int {
        try await acting.tokenCount(for: schema)
    }

    /// Counts a request's tokens as the acting model would.
    ///
    /// - Parameter request: The request.
    /// - Returns: The token count.
    /// - Throws: When the acting model cannot count.
    public func tokenCount(for request: GenerationRequest) async throws -> Int {
        try await acting.tokenCount(for: request)
    }

    /// The acting model's next step.
    ///
    /// - Parameter request: The request.
    /// - Returns: The acting model's generation.
    /// - Throws: What the acting model throws.
    public func generate(_ request: GenerationRequest) async throws -> Generation {
        try await acting.generate(request)
    }

    /// The acting model's next step, streamed.
    ///
    /// - Parameter request: The request.
    /// - Returns: The acting model's updates.
    public func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Error> {
        acting.streamGeneration(request)
    }

    /// Prepares the acting model.
    ///
    /// - Parameter request: The request that will probably follow.
    public func prewarm(for request: GenerationRequest) async {
        await acting.prewarm(for: request)
    }

    /// Text without the voice's secrets (a server's API key) nor the planner's.
    ///
    /// - Parameter text: The text.
    /// - Returns: The text without secrets.
    public func redactingSecrets(in text: String) -> String {
        pair.redactingSecrets(in: text)
    }
}
