import LanguageModels
import Synchronization

/// A model backend for tests: it answers with replies you script, records every request, and counts tokens by a
/// simple, documented rule so tests can reason about the context window.
///
/// ```swift
/// let model = MockLanguageModel(replies: [
///     .toolCall("lookUpStock", arguments: #"{"item": "lantern"}"#),
///     .text("The lantern is 12 gold."),
/// ])
/// let session = LanguageModelSession(model: model, tools: [LookUpStock()])
/// let answer = try await session.respond(to: "How much is the lantern?")
/// ```
///
/// **Token rule.** Each entry costs 4 tokens plus, for each segment, one token per 4 UTF-8 bytes of its text
/// (structured segments: of their compact JSON), rounded up. Tool definitions cost one token per 4 bytes of name,
/// description and parameter schema JSON; tool calls one per 4 bytes of name and argument JSON; a schema one per
/// 4 bytes of its JSON. `MockLanguageModel.tokens(in:)` computes an entry's cost. Each answer reports its usage by
/// the same rule (`usage(of:for:)`), so `response.usage` adds up as a server's would.
public final class MockLanguageModel: LanguageModel {
    /// One scripted answer.
    public enum Reply: Sendable {
        /// Answer with text.
        case text(String)
        /// Ask for tool calls.
        case toolCalls([ToolCall])
        /// Answer with structured content.
        case structured(GeneratedContent)
        /// Fail with an error, as a backend would.
        case failure(any Error)
        /// Report reasoning, then give the other reply.
        indirect case reasoning(String, then: Reply)
        /// Answer with text streamed in exactly these pieces (not `streamChunkSize`'s); before each piece, the mock
        /// waits for `gate` with the piece's index, so a test can hold the stream until it has seen what the first
        /// pieces did. Not streamed, the answer is the pieces joined, with no waiting.
        ///
        /// ```swift
        /// let firstHeard = AsyncStream<Void>.makeStream()
        /// let model = MockLanguageModel(replies: [
        ///     .deltas(["The lan", "tern is 25 gold. ", "Anything else?"]) { index in
        ///         if index == 2 { for await _ in firstHeard.stream { break } }
        ///     },
        /// ])
        /// ```
        case deltas([String], gate: @Sendable (Int) async -> Void = { _ in })

        /// Ask for one tool call.
        ///
        /// - Parameters:
        ///   - name: The tool's name.
        ///   - arguments: The arguments as JSON text.
        /// - Returns: The reply.
        public static func toolCall(_ name: String, arguments: String = "{}") -> Reply {
            .toolCalls([ToolCall(name: name, arguments: arguments)])
        }
    }

    /// A tool call a reply asks for.
    public struct ToolCall: Sendable {
        /// The tool's name.
        public var name: String
        /// The arguments as JSON text.
        public var arguments: String
        /// The call's id; `call-1`, `call-2`, ... in order when `nil`.
        public var id: String?

        /// Creates a tool call.
        ///
        /// - Parameters:
        ///   - name: The tool's name.
        ///   - arguments: The arguments as JSON text.
        ///   - id: The call's id, or `nil` for a numbered one.
        public init(name: String, arguments: String = "{}", id: String? = nil) {
            self.name = name
            self.arguments = arguments
            self.id = id
        }
    }

    /// Thrown when a test asks for more replies than it scripted.
    public struct OutOfReplies: Error, CustomStringConvertible {
        /// How many replies were scripted.
        public let scripted: Int
        /// Says so, and what to do.
        public var description: String {
            "MockLanguageModel has no reply left: all \(scripted) scripted replies were used. Script one more reply "
                + "for this request, or use the initializer that computes replies."
        }
    }

    /// The model's identifier: `mock` unless set.
    public let id: String
    /// The model's version: `1` unless set.
    public let version: String
    /// The context window in tokens.
    public let contextSize: Int
    /// How many characters each streamed text chunk has.
    public let streamChunkSize: Int
    /// A pause before each streamed chunk and before each non-streamed answer, to let tests cancel mid-turn.
    public let delay: Duration?

    private let source: Source
    private let state = Mutex(State())

    private enum Source: Sendable {
        case scripted([Reply])
        case computed(@Sendable (GenerationRequest) async throws -> Reply)
    }

    private struct State {
        var availability = LanguageModelAvailability.available
        var nextReply = 0
        var nextCallID = 1
        var requests: [GenerationRequest] = []
    }

    /// A mock that gives `replies` in order, one per request.
    ///
    /// - Parameters:
    ///   - contextSize: The context window in tokens.
    ///   - replies: The answers, in order.
    ///   - id: The model's identifier.
    ///   - version: The model's version.
    ///   - streamChunkSize: Characters per streamed chunk.
    ///   - delay: A pause before each answer or chunk.
    public init(
        contextSize: Int = 4096, replies: [Reply], id: String = "mock", version: String = "1",
        streamChunkSize: Int = 4, delay: Duration? = nil
    ) {
        self.contextSize = contextSize
        self.source = .scripted(replies)
        self.id = id
        self.version = version
        self.streamChunkSize = max(1, streamChunkSize)
        self.delay = delay
    }

    /// A mock that computes each reply from the request (its transcript, tools, schema and options).
    ///
    /// - Parameters:
    ///   - contextSize: The context window in tokens.
    ///   - id: The model's identifier.
    ///   - version: The model's version.
    ///   - streamChunkSize: Characters per streamed chunk.
    ///   - delay: A pause before each answer or chunk.
    ///   - reply: Computes the answer.
    public init(
        contextSize: Int = 4096, id: String = "mock", version: String = "1", streamChunkSize: Int = 4,
        delay: Duration? = nil, reply: @escaping @Sendable (GenerationRequest) async throws -> Reply
    ) {
        self.contextSize = contextSize
        self.source = .computed(reply)
        self.id = id
        self.version = version
        self.streamChunkSize = max(1, streamChunkSize)
        self.delay = delay
    }

    /// Whether the mock says it can answer: `.available` unless a test sets another value. It changes only what
    /// the mock reports, not how it answers.
    public var availability: LanguageModelAvailability {
        get { state.withLock { $0.availability } }
        set { state.withLock { $0.availability = newValue } }
    }

    /// The context window, known without waiting.
    public var knownContextSize: Int? { contextSize }

    /// Every request the model received, in order.
    public var requests: [GenerationRequest] { state.withLock { $0.requests } }

    /// How many scripted replies have been used.
    public var repliesUsed: Int { state.withLock { $0.nextReply } }

    // MARK: - LanguageModel

    /// Text, tool calling, guided generation and reasoning, in this process.
    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.toolCalling, .guidedGeneration, .reasoning, .inProcess])
    }

    /// Counts tokens by the shared rule, `TokenEstimate`.
    public func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        TokenEstimate.tokens(in: entries)
    }

    /// One token per 4 bytes of the schema's JSON (`TokenEstimate`).
    public func tokenCount(for schema: GenerationSchema) async throws -> Int {
        TokenEstimate.tokens(in: schema)
    }

    /// Answers with the next reply, with usage by the token rule (see `usage(of:for:)`).
    public func generate(_ request: GenerationRequest) async throws -> Generation {
        let reply = try await nextReply(for: request)
        if let delay { try await Task.sleep(for: delay) }
        var generation = try generation(from: reply)
        generation.usage = try await usage(of: generation, for: request)
        return generation
    }

    /// The usage the mock reports for a generation, by the token rule: the request's tokens as
    /// `tokenCount(for:)` counts them (none cached), and the output's (text or JSON, tool names and argument JSON,
    /// and reasoning, which is also given as the reasoning tokens).
    ///
    /// - Parameters:
    ///   - generation: What the mock answered.
    ///   - request: What it was asked.
    /// - Returns: The usage.
    /// - Throws: Nothing; it is `async throws` because token counting is.
    public func usage(of generation: Generation, for request: GenerationRequest) async throws -> GenerationUsage {
        let reasoning = generation.reasoning.map(MockLanguageModel.tokens(inText:)) ?? 0
        let output: Int =
            switch generation.output {
            case .text(let text): MockLanguageModel.tokens(inText: text)
            case .structure(let content): MockLanguageModel.tokens(inText: content.jsonString)
            case .toolCalls(let calls):
                calls.reduce(0) { $0 + MockLanguageModel.tokens(inText: $1.toolName + $1.arguments.jsonString) }
            }
        return GenerationUsage(
            promptTokens: try await tokenCount(for: request), cachedPromptTokens: 0,
            completionTokens: output + reasoning, reasoningTokens: reasoning)
    }

    /// Streams the next reply: its text in chunks of `streamChunkSize` characters, tool calls at the end.
    public func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let reply = try await self.nextReply(for: request)
                    if case .deltas(let pieces, let gate) = reply {
                        for (index, piece) in pieces.enumerated() {
                            await gate(index)
                            try Task.checkCancellation()
                            continuation.yield(.text(piece))
                        }
                        let generation = Generation(output: .text(pieces.joined()))
                        continuation.yield(.usage(try await self.usage(of: generation, for: request)))
                        continuation.finish()
                        return
                    }
                    var generation = try self.generation(from: reply)
                    generation.usage = try await self.usage(of: generation, for: request)
                    if let reasoning = generation.reasoning { continuation.yield(.reasoning(reasoning)) }
                    switch generation.output {
                    case .toolCalls(let calls):
                        if let delay { try await Task.sleep(for: delay) }
                        continuation.yield(.toolCalls(calls))
                    case .text(let text):
                        try await self.streamChunks(of: text, into: continuation)
                    case .structure(let content):
                        try await self.streamChunks(of: content.jsonString, into: continuation)
                    }
                    if let usage = generation.usage { continuation.yield(.usage(usage)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    // MARK: - Token rule

    /// An entry's token cost by the shared rule, `TokenEstimate.tokens(in:)`.
    ///
    /// - Parameter entry: The entry.
    /// - Returns: 4 plus the cost of its segments, tool definitions or tool calls.
    public static func tokens(in entry: Transcript.Entry) -> Int { TokenEstimate.tokens(in: entry) }

    /// A segment's token cost by the shared rule: one per 4 UTF-8 bytes of its text or JSON, rounded up; nothing for
    /// a segment of an unknown kind, which no model sees.
    ///
    /// - Parameter segment: The segment.
    /// - Returns: The cost.
    public static func tokens(in segment: Transcript.Segment) -> Int { TokenEstimate.tokens(in: segment) }

    /// One token per 4 UTF-8 bytes, rounded up (`TokenEstimate.tokens(inText:)`).
    ///
    /// - Parameter text: The text.
    /// - Returns: The cost.
    public static func tokens(inText text: String) -> Int { TokenEstimate.tokens(inText: text) }

    // MARK: - Replies

    private func nextReply(for request: GenerationRequest) async throws -> Reply {
        let scripted: Reply? = try state.withLock { state in
            state.requests.append(request)
            guard case .scripted(let replies) = source else { return nil }
            guard state.nextReply < replies.count else { throw OutOfReplies(scripted: replies.count) }
            defer { state.nextReply += 1 }
            return replies[state.nextReply]
        }
        if let scripted { return scripted }
        guard case .computed(let compute) = source else { throw OutOfReplies(scripted: 0) }
        return try await compute(request)
    }

    private func generation(from reply: Reply) throws -> Generation {
        switch reply {
        case .text(let text): return Generation(output: .text(text), usage: nil)
        case .deltas(let pieces, _): return Generation(output: .text(pieces.joined()), usage: nil)
        case .structured(let content): return Generation(output: .structure(content))
        case .failure(let error): throw error
        case .reasoning(let reasoning, let then):
            var generation = try generation(from: then)
            generation.reasoning = reasoning
            return generation
        case .toolCalls(let calls):
            let converted = try calls.map { call in
                let arguments = try GeneratedContent(json: call.arguments)
                let id =
                    call.id
                    ?? state.withLock { state in
                        defer { state.nextCallID += 1 }
                        return "call-\(state.nextCallID)"
                    }
                return Transcript.ToolCall(id: id, toolName: call.name, arguments: arguments)
            }
            return Generation(output: .toolCalls(converted))
        }
    }

    private func streamChunks(
        of text: String, into continuation: AsyncThrowingStream<GenerationUpdate, any Error>.Continuation
    )
        async throws
    {
        var rest = Substring(text)
        while !rest.isEmpty {
            if let delay { try await Task.sleep(for: delay) }
            try Task.checkCancellation()
            continuation.yield(.text(String(rest.prefix(streamChunkSize))))
            rest = rest.dropFirst(streamChunkSize)
        }
    }
}
