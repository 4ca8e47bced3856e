import Observation
import Synchronization

/// A conversation with a model: it keeps the transcript, runs tools, and answers one request at a time.
///
/// Create one session per conversation (Parley creates one per NPC), from instructions or from a saved
/// transcript, and call `respond(to:)` or `streamResponse(to:)` for each turn.
///
/// ```swift
/// let session = LanguageModelSession(model: model, tools: [LookUpStock()], instructions: "You are Mira, a merchant.")
/// let reply = try await session.respond(to: "Do you sell lanterns?")
/// print(reply.content)
/// ```
///
/// A turn's entries (prompt, tool calls and outputs, response) are appended to the transcript only when the turn
/// succeeds; on any error or cancellation they are rolled back, so the transcript never holds half a turn. The
/// rolled-back entries are kept for `logFeedbackAttachment`.
///
/// A session is `Observable`, as on Apple platforms: reading `transcript`, `isResponding` or `usage` inside
/// `withObservationTracking` (or a SwiftUI view) is told when a turn begins, ends or changes them.
public final class LanguageModelSession: Observable, Sendable {
    /// The model backend.
    public let model: any LanguageModel
    /// The tools the model may call.
    public let tools: [any Tool]

    private let state: Mutex<State>
    /// Tells observers of `transcript`, `isResponding` and `usage` about changes. It is told outside the lock, after the
    /// state changed, so an observer that reads the session does not deadlock.
    private let registrar = ObservationRegistrar()

    struct State {
        var transcript: Transcript
        var isResponding = false
        var maximumToolRounds = 8
        var rolledBackEntries: [Transcript.Entry] = []
        var usage: GenerationUsage?
        var toolExecutionDelegate: (any ToolExecutionDelegate)?
    }

    /// The most rolled-back entries kept for feedback reports.
    static let rolledBackEntryLimit = 64

    // MARK: - Creating a session

    /// Creates a session with text instructions.
    ///
    /// - Parameters:
    ///   - model: The model backend.
    ///   - tools: The tools the model may call.
    ///   - instructions: What the model should be and do; the first entry of the transcript.
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: String? = nil) {
        self.init(model: model, tools: tools, instructions: instructions.map { Instructions($0) })
    }

    /// Creates a session with instructions.
    ///
    /// - Parameters:
    ///   - model: The model backend.
    ///   - tools: The tools the model may call.
    ///   - instructions: What the model should be and do; the first entry of the transcript.
    @_disfavoredOverload
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: Instructions?) {
        var entries: [Transcript.Entry] = []
        let definitions = tools.filter(\.includesSchemaInInstructions).map { Transcript.ToolDefinition(tool: $0) }
        if instructions != nil || !definitions.isEmpty {
            entries.append(
                .instructions(.init(segments: instructions?.segments ?? [], toolDefinitions: definitions)))
        }
        self.init(model: model, tools: tools, transcript: Transcript(entries: entries))
    }

    /// Creates a session with instructions from a builder.
    ///
    /// - Parameters:
    ///   - model: The model backend.
    ///   - tools: The tools the model may call.
    ///   - instructions: Statements that build the instructions.
    /// - Throws: What `instructions` throws.
    public convenience init(
        model: some LanguageModel, tools: [any Tool] = [], @InstructionsBuilder instructions: () throws -> Instructions
    ) rethrows {
        self.init(model: model, tools: tools, instructions: try instructions())
    }

    /// Restores a session from a transcript, to continue a saved conversation.
    ///
    /// The transcript is used as it is: its instructions entry (if any) stays the instructions, and the model sees
    /// the whole conversation on the next request.
    ///
    /// - Parameters:
    ///   - model: The model backend.
    ///   - tools: The tools the model may call.
    ///   - transcript: The conversation so far.
    public init(model: some LanguageModel, tools: [any Tool] = [], transcript: Transcript) {
        self.model = model
        self.tools = tools
        toolDefinitions = tools.map { Transcript.ToolDefinition(tool: $0) }
        self.state = Mutex(State(transcript: transcript))
    }

    // MARK: - State

    /// The conversation so far.
    ///
    /// Setting it replaces the conversation, for example to trim it when it outgrows the context window. A turn
    /// in progress appends its entries to the transcript that is current when it finishes.
    public var transcript: Transcript {
        get {
            registrar.access(self, keyPath: \.transcript)
            return state.withLock { $0.transcript }
        }
        set {
            registrar.withMutation(of: self, keyPath: \.transcript) {
                state.withLock { $0.transcript = newValue }
            }
        }
    }

    /// Whether a request is in progress.
    public var isResponding: Bool {
        registrar.access(self, keyPath: \.isResponding)
        return state.withLock { $0.isResponding }
    }

    /// Tells observers that the properties changed (the state has already changed; observers that read it see the
    /// new values).
    private func didChange(transcript: Bool, isResponding: Bool) {
        if transcript {
            // A turn that changes the transcript also adds to the usage.
            registrar.willSet(self, keyPath: \.transcript)
            registrar.didSet(self, keyPath: \.transcript)
            registrar.willSet(self, keyPath: \.usage)
            registrar.didSet(self, keyPath: \.usage)
        }
        if isResponding {
            registrar.willSet(self, keyPath: \.isResponding)
            registrar.didSet(self, keyPath: \.isResponding)
        }
    }

    /// The most rounds of tool calls one turn may take before it fails with `ToolRoundLimitExceeded` (8 by
    /// default), so a model that keeps calling tools cannot loop forever.
    public var maximumToolRounds: Int {
        get { state.withLock { $0.maximumToolRounds } }
        set { state.withLock { $0.maximumToolRounds = max(0, newValue) } }
    }

    /// Decides, for each tool call, whether the session runs it, denies it, uses an output the app gives, or stops
    /// the turn; `nil` (the default) runs every call. A turn uses the delegate set when it began.
    public var toolExecutionDelegate: (any ToolExecutionDelegate)? {
        get { state.withLock { $0.toolExecutionDelegate } }
        set { state.withLock { $0.toolExecutionDelegate = newValue } }
    }

    /// Token counts of all the session's successful turns (Apple 27's shape); they only grow.
    public var usage: Usage {
        registrar.access(self, keyPath: \.usage)
        return Usage(state.withLock { $0.usage })
    }

    /// Token counts and timings of all the session's successful turns as the backend reported them, `nil` while it
    /// has reported none.
    public var generationUsage: GenerationUsage? { state.withLock { $0.usage } }

    /// Entries of turns that failed or were cancelled, most recent last, for feedback reports.
    public var rolledBackEntries: [Transcript.Entry] { state.withLock { $0.rolledBackEntries } }

    /// Asks the backend to prepare for a request, for example to load the model or prime a prompt cache.
    ///
    /// - Parameter promptPrefix: The beginning of the prompt that will probably follow.
    public func prewarm(promptPrefix: Prompt? = nil) {
        var transcript = self.transcript
        if let promptPrefix { transcript.append(.prompt(.init(segments: promptPrefix.segments))) }
        let request = GenerationRequest(transcript: transcript, tools: toolDefinitions)
        let model = self.model
        Task { await model.prewarm(for: request) }
    }

    // MARK: - Turn bookkeeping

    /// The definitions of all the session's tools, made once: every request sends them, and making one builds its
    /// tool's schema.
    let toolDefinitions: [Transcript.ToolDefinition]

    /// A turn that has claimed the session: the transcript it builds on and its tool-round limit.
    struct BegunTurn: Sendable {
        var transcript: Transcript
        var maximumToolRounds: Int
        var toolExecutionDelegate: (any ToolExecutionDelegate)?
    }

    /// Marks the session as responding and returns the transcript to build on.
    ///
    /// - Throws: `LanguageModelSession.Error.concurrentRequests` when a turn is already in progress.
    func beginTurn() throws -> BegunTurn {
        let turn = try state.withLock { state in
            guard !state.isResponding else { throw LanguageModelSession.Error.concurrentRequests }
            state.isResponding = true
            return BegunTurn(
                transcript: state.transcript, maximumToolRounds: state.maximumToolRounds,
                toolExecutionDelegate: state.toolExecutionDelegate)
        }
        didChange(transcript: false, isResponding: true)
        return turn
    }

    /// Appends a successful turn's entries and returns them.
    ///
    /// - Parameters:
    ///   - entries: The turn's entries.
    ///   - usage: The turn's token counts.
    ///   - base: The transcript the turn began with.
    ///   - working: `base` with the first of the turn's entries, which the requests saw: when the transcript is
    ///     still `base`, it becomes `working` with the rest, so no entry is copied.
    func commitTurn(
        _ entries: [Transcript.Entry], usage: GenerationUsage?, base: Transcript, working: Transcript
    ) -> ArraySlice<Transcript.Entry> {
        defer { didChange(transcript: true, isResponding: true) }
        return state.withLock { state in
            let seen = working.count - base.count
            if state.transcript.sharesStorage(with: base), (0...entries.count).contains(seen) {
                state.transcript = working
                state.transcript.append(contentsOf: entries[seen...])
            } else {
                state.transcript.append(contentsOf: entries)
            }
            state.isResponding = false
            if let usage { state.usage = state.usage.map { $0.adding(usage) } ?? usage }
            return entries[...]
        }
    }

    /// Ends a failed turn: nothing is appended; its entries are kept for feedback.
    func rollBackTurn(_ entries: [Transcript.Entry]) {
        defer { didChange(transcript: false, isResponding: true) }
        state.withLock { state in
            state.isResponding = false
            state.rolledBackEntries.append(contentsOf: entries)
            let excess = state.rolledBackEntries.count - LanguageModelSession.rolledBackEntryLimit
            if excess > 0 { state.rolledBackEntries.removeFirst(excess) }
        }
    }
}
