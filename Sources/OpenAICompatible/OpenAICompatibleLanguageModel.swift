import Foundation
import LanguageModels
import ParleyHTTP
import ParleyJSON
import Synchronization

/// A `LanguageModel` served by any OpenAI-compatible chat-completions server: llama.cpp's llama-server,
/// Ollama's `/v1`, vLLM, LM Studio, OpenAI.
///
/// ```swift
/// let model = try await OpenAICompatibleLanguageModel.connect(.init(baseURL: "http://127.0.0.1:8080/v1"))
/// let session = LanguageModelSession(model: model, tools: [LookUpStock()], instructions: "You are Mira.")
/// let reply = try await session.respond(to: "Do you sell lanterns?")
/// ```
///
/// - The transcript becomes chat messages (system, user, assistant, assistant `tool_calls`, `tool`); tools go in
///   `tools`; guided generation uses `response_format` `json_schema`, so even a small model returns valid JSON.
/// - Models without native tool calling (llama-server reports `supports_tool_calls: false`) call tools through
///   constrained output; see `ToolCallingMode`.
/// - Streams are read as server-sent events; a stream that breaks off is an error, never half an entry.
/// - Text replies are kept short and free of loops: at most `maximumSentences` sentences (per NPC:
///   `replying(inAtMost:)`), cut where the model starts repeating itself (`cutsLoops`), with `max_tokens` from the
///   budget, repetition penalties and samplers (`repetition`) and stop strings (`stop`). A cut reply ends the turn
///   normally with the kept text, and the stream is closed.
/// - Context overflow becomes `LanguageModelError.contextSizeExceeded`, 429 `rateLimited`, timeouts `timeout`;
///   5xx, resets and timeouts are retried a few times first. Other failures are `ModelServerError`s.
/// - Token counts are exact where the server can tokenize (llama-server's `/apply-template` and `/tokenize`),
///   and otherwise estimated as 4 tokens per message plus one per 4 UTF-8 bytes of its content.
/// - The same transcript always gives the same request bytes, so servers reuse their prompt cache.
public final class OpenAICompatibleLanguageModel: LanguageModel {
    /// The configuration.
    public let configuration: Configuration
    /// The model's identifier: the configured model name, the server's, or `default`.
    public let id: String
    /// The model's version: configured, reported by the server, or `unknown`.
    public let version: String

    /// Whose KV cache this copy's requests build on, kept in llama-server's slot files; see `keepingCache(as:)`.
    public let cacheKey: SlotCacheKey?

    let client: HTTPClient
    /// What the server said about itself, shared with the copies `replying(inAtMost:)` makes.
    private let discovered: SharedServerInfo
    /// Which key's cache each of the server's slots holds, shared with every copy.
    let slots: SlotTable
    /// What the backend last learnt of the server's availability, shared with the copies too.
    let availabilityCache: AvailabilityCache

    /// Creates a backend without contacting the server; details are read from it on first use.
    ///
    /// - Parameter configuration: The server and how to use it.
    /// - Throws: `HTTPClientError` when the HTTP client cannot start.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        self.id = configuration.model ?? "default"
        self.version = configuration.version ?? "unknown"
        self.client = try HTTPClient()
        self.discovered = SharedServerInfo()
        self.cacheKey = nil
        self.slots = SlotTable()
        self.availabilityCache = AvailabilityCache()
    }

    private init(configuration: Configuration, info: ServerInfo, client: HTTPClient) {
        self.configuration = configuration
        self.id = configuration.model ?? info.modelName ?? "default"
        self.version = configuration.version ?? info.build ?? "unknown"
        self.client = client
        self.discovered = SharedServerInfo()
        self.availabilityCache = AvailabilityCache()
        discovered.withLock { $0 = info }
        self.cacheKey = nil
        self.slots = SlotTable()
    }

    /// A copy of `model` with another configuration and cache key, sharing its HTTP client, what it learnt of the
    /// server and its slot table.
    init(copying model: OpenAICompatibleLanguageModel, configuration: Configuration, cacheKey: SlotCacheKey?) {
        self.configuration = configuration
        self.id = model.id
        self.version = model.version
        self.client = model.client
        self.discovered = model.discovered
        self.cacheKey = cacheKey
        self.slots = model.slots
        self.availabilityCache = model.availabilityCache
    }

    /// This backend with its own sentence budget, for one NPC: the same server, HTTP client and server details
    /// (read once, for all copies), with `maximumSentences` set to `sentences`.
    ///
    /// ```swift
    /// let model = try await OpenAICompatibleLanguageModel.connect(.init(baseURL: "http://127.0.0.1:8080/v1"))
    /// let sentry = model.replying(inAtMost: 1)     // terse
    /// let bard = model.replying(inAtMost: 4)
    /// ```
    ///
    /// - Parameter sentences: The most sentences a reply keeps, or `nil` for no limit.
    /// - Returns: The copy; `id`, `version` and `cacheKey` are this backend's.
    public func replying(inAtMost sentences: Int?) -> OpenAICompatibleLanguageModel {
        var configuration = self.configuration
        configuration.maximumSentences = sentences
        return OpenAICompatibleLanguageModel(copying: self, configuration: configuration, cacheKey: cacheKey)
    }

    /// A backend whose `availability` already answers for the server as it is now: the server is asked (within
    /// `Configuration.availabilityTimeout`) before this returns. Nothing about the server makes it fail: a server
    /// that is down or lacks the model is what `availability` then says.
    ///
    /// It is the form a port of `SystemLanguageModel.default` takes, for code that checks `availability` once, at
    /// the start (`Examples/ItineraryPlanner`):
    ///
    /// ```swift
    /// let model = try await OpenAICompatibleLanguageModel.probed(.init(baseURL: "http://127.0.0.1:8080/v1"))
    /// switch model.availability {
    /// case .available: startPlanning()
    /// case .unavailable(let reason): print("The model is unavailable: \(reason)")
    /// }
    /// ```
    ///
    /// - Parameter configuration: The server and how to use it.
    /// - Returns: The backend, its availability known.
    /// - Throws: `HTTPClientError` when the HTTP client cannot start.
    public static func probed(_ configuration: Configuration) async throws -> OpenAICompatibleLanguageModel {
        let model = try OpenAICompatibleLanguageModel(configuration: configuration)
        _ = await model.refreshAvailability()
        return model
    }

    /// Connects to the server and reads what it says about itself (context size, tool support, model name and
    /// build), so `id` and `version` name the model that really answers.
    ///
    /// - Parameter configuration: The server and how to use it.
    /// - Returns: The backend.
    /// - Throws: `ModelServerError` when the server cannot be reached or answers nonsense.
    public static func connect(_ configuration: Configuration) async throws -> OpenAICompatibleLanguageModel {
        let client = try HTTPClient()
        let probe = OpenAICompatibleLanguageModel(
            configuration: configuration, info: ServerInfo(canTokenize: false), client: client)
        probe.discovered.withLock { $0 = nil }
        let info = try await probe.serverInfo()
        let model = OpenAICompatibleLanguageModel(configuration: configuration, info: info, client: client)
        let learnt = probe.availabilityCache.withLock { $0.value }
        model.availabilityCache.withLock { $0.value = learnt }
        return model
    }

    // MARK: - LanguageModel

    /// Text, tools (natively or through constrained output) and guided generation.
    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.toolCalling, .guidedGeneration, .reasoning])
    }

    /// The configured context size, or the server's (asked once). `knownContextSize` gives it without waiting.
    ///
    /// When neither is known it is `Int.max`: requests are not checked before sending, and the server's own
    /// context error is reported as `LanguageModelError.contextSizeExceeded`.
    public var contextSize: Int {
        get async throws {
            if let configured = configuration.contextSize { return configured }
            return try await serverInfo().contextSize ?? Int.max
        }
    }

    /// Generates the next step with one chat-completions request.
    ///
    /// In constrained tool calling, a tool call that `max_tokens` cut off is asked for once more, with more room.
    /// A text reply keeps what `maximumSentences` and `cutsLoops` allow.
    public func generate(_ request: GenerationRequest) async throws -> Generation {
        do {
            return try await withSlot(background: false) { slot in try await self.generate(request, slot: slot) }
        } catch {
            throw redacted(error)
        }
    }

    /// `generate(_:)` in a slot: pinned to it with `id_slot`, or unpinned when `slot` is `nil`.
    private func generate(_ request: GenerationRequest, slot: Int?) async throws -> Generation {
        let (builder, constrained) = try await builder(for: request)
        let rules = configuration.replyRules(for: request)
        var room = ChatRequestBuilder.constrainedOverhead
        while true {
            let body = builder.body(for: request, stream: false, constrainedRoom: room, slot: slot)
            let limits = self.limits(for: body)
            let response = try await send(
                endpoint: "/chat/completions", body: Data(body.jsonString().utf8), limits: limits)
            do {
                return Self.shaped(
                    try ChatResponseParser.generation(
                        from: response.body, constrained: constrained, makeCallID: Self.makeCallID,
                        redactor: redactor),
                    rules: rules)
            } catch let error as ChatResponseParser.InvalidResponse {
                throw invalidResponse(error, status: response.status, headers: response.headers)
            } catch let error as GeneratedContent.ParsingError
                where Self.shouldRetry(
                    error, constrained: constrained, room: room, limited: body["max_tokens"] != nil)
            {
                room = ChatRequestBuilder.constrainedRetryRoom
            }
        }
    }

    /// Whether a step's output was a constrained tool call cut off by the token limit, on its first attempt.
    ///
    /// - Parameter limited: Whether the request had a token limit (`max_tokens`).
    static func shouldRetry(
        _ error: GeneratedContent.ParsingError, constrained: ConstrainedToolCalling?, room: Int, limited: Bool
    ) -> Bool {
        constrained != nil && limited && room < ChatRequestBuilder.constrainedRetryRoom
            && ConstrainedToolCalling.isCutOffToolCall(error.rawContent)
    }

    /// A generation whose text reply keeps what the rules allow; tool calls and structured answers as they are.
    static func shaped(_ generation: Generation, rules: ReplyShaper.Rules?) -> Generation {
        guard let rules, case .text(let text) = generation.output else { return generation }
        var shaped = generation
        shaped.output = .text(ReplyShaper.shape(text, rules: rules))
        return shaped
    }

    /// Generates the next step as a stream of server-sent events.
    ///
    /// A server that answers a streaming request with one whole chat completion (JSON) is read as if it had
    /// streamed it; any other body that is not an event stream (a web page, another JSON document) is an error
    /// that says what came back.
    ///
    /// A text reply shows only what `maximumSentences` and `cutsLoops` keep: text is held back until it is certain
    /// to be kept (at most the sentence in progress). Once the reply is cut, the stream is closed and the
    /// generation ends normally with the kept text; when native tools were offered, the stream is read to its end
    /// instead, since tool calls may follow the text.
    public func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.withSlot(background: false) { slot in
                        try await self.stream(request, slot: slot) { continuation.yield($0) }
                    }
                    continuation.finish()
                } catch let error as HTTPClientError where error == .cancelled {
                    continuation.finish(throwing: CancellationError())
                } catch {
                    continuation.finish(throwing: self.redacted(error))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Streams one generation in a slot (pinned with `id_slot`, or unpinned when `slot` is `nil`), yielding its
    /// updates as they come.
    private func stream(
        _ request: GenerationRequest, slot: Int?, yield: @Sendable (GenerationUpdate) -> Void
    ) async throws {
        let (builder, constrained) = try await self.builder(for: request)
        let rules = configuration.replyRules(for: request)
        let nativeTools = constrained == nil && !request.tools.isEmpty
        var room = ChatRequestBuilder.constrainedOverhead
        while true {
            let body = builder.body(for: request, stream: true, constrainedRoom: room, slot: slot)
            let limits = self.limits(for: body)
            let response = try await openStream(body: Data(body.jsonString().utf8))
            var accumulator = ChatStreamAccumulator(
                constrained: constrained, makeCallID: Self.makeCallID, redactor: redactor,
                limits: limits, replyRules: rules, stopsWhenCut: !nativeTools)
            let updates: [GenerationUpdate]
            do {
                updates = try await read(response, limits: limits, into: &accumulator, yield: yield)
            } catch let error as GeneratedContent.ParsingError
                where Self.shouldRetry(
                    error, constrained: constrained, room: room, limited: body["max_tokens"] != nil)
            {
                // A cut-off tool call streamed no text (only replies do), so asking again is unseen.
                room = ChatRequestBuilder.constrainedRetryRoom
                continue
            }
            for update in updates { yield(update) }
            return
        }
    }

    /// Reads a streamed answer into the accumulator, yielding its updates as they come, and returns the updates
    /// that complete it. Reads server-sent events, or one JSON document from a server that does not stream.
    private func read(
        _ response: HTTPStreamingResponse, limits: ReplyLimits, into accumulator: inout ChatStreamAccumulator,
        yield: (GenerationUpdate) -> Void
    ) async throws -> [GenerationUpdate] {
        let url = configuration.baseURL
        var parser = SSEParser()
        // The lines of a body that is not an event stream, once its first line showed that.
        var document: [String]?
        var documentBytes = 0
        var started = false
        var done = false
        do {
            lines: for try await line in response.limitingBody(to: limits.streamBytes).lines {
                if document != nil {
                    document?.append(line)
                    documentBytes += line.utf8.count + 1
                    // A web page is read only as far as its title.
                    if document?.first?.first == "<",
                        documentBytes > 4096 || line.localizedCaseInsensitiveContains("</title")
                    {
                        break lines
                    }
                    continue
                }
                if !started {
                    let start = line.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
                    if start.isEmpty { continue }
                    started = true
                    if start.first == "{" || start.first == "[" || start.first == "<" {
                        document = [String(start)]
                        documentBytes = start.utf8.count
                        continue
                    }
                }
                if let event = parser.feed(line: line) {
                    for update in try accumulator.consume(event.data) { yield(update) }
                    if event.data == "[DONE]" {
                        done = true
                        break lines
                    }
                    if accumulator.stopsReading {
                        // The reply has been cut: the rest is not wanted, and the server may stop generating.
                        response.cancel()
                        done = true
                        break lines
                    }
                }
            }
            if document == nil, !done, let event = parser.finish() {
                for update in try accumulator.consume(event.data) { yield(update) }
            }
        } catch let error as HTTPClientError where error == .responseTooLarge {
            throw ModelServerError.responseTooLarge.with(
                url: url, detail: limits.explanation(passing: limits.streamBytes))
        } catch let error as HTTPClientError where error != .cancelled {
            throw ModelServerError.streamInterrupted.with(url: url, detail: "\(error)")
        } catch let error as ReplyLimits.Exceeded {
            response.cancel()
            throw ModelServerError.responseTooLarge.with(url: url, detail: limits.explanation(passing: error.bytes))
        } catch let error as ChatResponseParser.InvalidResponse {
            response.cancel()
            throw invalidResponse(error, status: response.status, headers: response.headers)
        }
        try Task.checkCancellation()
        if let document {
            response.cancel()
            return try documentUpdates(document.joined(separator: "\n"), response: response, accumulator: accumulator)
        }
        guard accumulator.finished || accumulator.stopsReading else {
            throw ModelServerError.streamInterrupted.with(
                url: url, detail: "the stream ended without [DONE] or a finish reason")
        }
        return try accumulator.finish()
    }

    /// The updates of a whole chat completion sent instead of a stream, or the error that says what came back.
    private func documentUpdates(
        _ text: String, response: HTTPStreamingResponse, accumulator: ChatStreamAccumulator
    ) throws -> [GenerationUpdate] {
        let parsed: Generation
        do {
            parsed = try ChatResponseParser.generation(
                from: Data(text.utf8), constrained: accumulator.constrained, makeCallID: Self.makeCallID,
                redactor: redactor)
        } catch var error as ChatResponseParser.InvalidResponse {
            if Self.webPage(headers: response.headers, text: text) == nil {
                error.message =
                    "it was asked for a stream of events (text/event-stream) but sent "
                    + (text.first == "{" || text.first == "["
                        ? "a JSON document that is not a chat completion" : "something else")
            }
            throw invalidResponse(error, status: response.status, headers: response.headers)
        }
        let generation = Self.shaped(parsed, rules: accumulator.replyRules)
        var updates: [GenerationUpdate] = []
        if let reasoning = generation.reasoning { updates.append(.reasoning(reasoning)) }
        switch generation.output {
        case .text(let text): updates.append(.text(text))
        case .toolCalls(let calls): updates.append(.toolCalls(calls))
        case .structure(let content): updates.append(.text(content.jsonString))
        }
        if let usage = generation.usage { updates.append(.usage(usage)) }
        return updates
    }

    /// The error for a body that is not a chat completion: a web page, or something else, quoted.
    private func invalidResponse(
        _ error: ChatResponseParser.InvalidResponse, status: Int, headers: HTTPHeaders
    ) -> ModelServerError {
        let text = redactor.redact(error.body)
        if let page = Self.webPage(headers: headers, text: text) {
            return ModelServerError.webPage.with(
                url: configuration.baseURL, status: status, detail: Self.pageDetail(page))
        }
        return ModelServerError.invalidResponse.with(
            url: configuration.baseURL, detail: "\(error.message) (body: \(Self.excerpt(text)))")
    }

    /// The size limits for a request body, from the `max_tokens` it sends.
    func limits(for body: JSONValue) -> ReplyLimits {
        ReplyLimits(maximumTokens: body["max_tokens"]?.intValue, hardCap: configuration.maximumReplyBytes)
    }

    // MARK: - Token counting

    /// Counts the tokens of the request exactly as it will be sent, when the server can tokenize; otherwise
    /// estimates them by the shared rule, `TokenEstimate` (4 per message plus one per 4 UTF-8 bytes of content and
    /// tool definitions).
    public func tokenCount(for request: GenerationRequest) async throws -> Int {
        let (builder, _) = try await builder(for: request)
        let body = builder.body(for: request, stream: false)
        var templateBody = JSONObject([("messages", body["messages"] ?? [])])
        if let tools = body["tools"] { templateBody["tools"] = tools }
        // The request may ask for more tokens than maximumResponseTokens (room for the JSON around a constrained
        // reply, or for a tool call beside the sentence budget); the session reserves only the limit, so the
        // difference is counted here. So is the sentence budget's max_tokens, which the session does not know of.
        var reserve = 0
        if let tokens = builder.replyTokens(for: request) {
            reserve = (request.options.maximumResponseTokens == nil ? tokens : 0).saturatingAdding(
                builder.room(for: request))
        }
        return try await tokenCount(templateBody: templateBody).saturatingAdding(reserve)
    }

    /// Counts the tokens of entries as chat messages.
    public func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        let builder = ChatRequestBuilder(
            modelName: configuration.model, toolCalling: .native, sendsServerExtensions: false, extraBody: JSONObject())
        let messages = builder.messages(for: Transcript(entries: entries), tools: [])
        return try await tokenCount(templateBody: JSONObject([("messages", .array(messages))]))
    }

    /// Counts the tokens of a schema's JSON text.
    public func tokenCount(for schema: GenerationSchema) async throws -> Int {
        let text = schema.jsonSchema.jsonString()
        if try await serverInfo().canTokenize, let count = try? await tokenize(text, addSpecial: false) { return count }
        return TokenEstimate.tokens(inText: text)
    }

    private func tokenCount(templateBody: JSONObject) async throws -> Int {
        if try await serverInfo().canTokenize {
            do {
                let templated = try await post(endpoint: "/apply-template", root: true, body: .object(templateBody))
                if let prompt = templated["prompt"]?.stringValue { return try await tokenize(prompt, addSpecial: true) }
            } catch is CancellationError {
                throw CancellationError()
            } catch let error as ModelServerError where error == .unreachable {
                throw error
            } catch {
                // A server that cannot tokenize after all is counted by the estimate from now on.
            }
            stopTokenizing()
        }
        var count = 0
        for message in templateBody["messages"]?.arrayValue ?? [] {
            let content = message["content"]?.stringValue ?? message.jsonString()
            count += TokenEstimate.perMessage + TokenEstimate.tokens(inText: content)
        }
        if let tools = templateBody["tools"] { count += TokenEstimate.tokens(inText: tools.jsonString()) }
        return count
    }

    private func tokenize(_ text: String, addSpecial: Bool) async throws -> Int {
        let result = try await post(
            endpoint: "/tokenize", root: true,
            body: ["content": .string(text), "add_special": .bool(addSpecial), "parse_special": true])
        guard let tokens = result["tokens"]?.arrayValue else {
            throw ModelServerError.invalidResponse.with(url: configuration.rootURL, detail: "/tokenize gave no tokens")
        }
        return tokens.count
    }

    // MARK: - Server details

    /// The smallest context window, in tokens, a server may have: below it, no NPC's instructions and a line fit.
    /// A server that reports less (or a configured `contextSize` below it) is refused with
    /// `ModelServerError.contextTooSmall`.
    public static let minimumContextSize = 256

    /// The most llama-server slots Parley keeps track of (`total_slots`, from `--parallel`); a server reporting more
    /// is taken to have this many.
    static let maximumSlotCount = 1_024

    /// What the server says about itself, read once: llama-server's `/props`, else `/v1/models`.
    ///
    /// - Returns: The server's details; fields it does not report are `nil`.
    /// - Throws: `ModelServerError.unreachable` when nothing answers.
    public func serverInfo() async throws -> ServerInfo {
        if let known = knownServerInfo { return known }
        do {
            return try await discoverServerInfo()
        } catch {
            noteAvailability(after: error)
            throw error
        }
    }

    /// What the server said about itself, if it has been asked.
    var knownServerInfo: ServerInfo? { discovered.withLock { $0 } }

    private func discoverServerInfo() async throws -> ServerInfo {
        var info = ServerInfo(canTokenize: false)
        if let props = try await optionalGet(configuration.rootURL + "/props"),
            props["default_generation_settings"] != nil || props["total_slots"] != nil
        {
            // llama-server: its context per slot, template capabilities, model and build.
            let settings = props["default_generation_settings"]
            info.kind = .llamaServer
            info.generationSettings = Set((settings?["params"]?.objectValue ?? settings?.objectValue)?.keys ?? [])
            info.contextSize = settings?["n_ctx"]?.saturatingIntValue ?? props["n_ctx"]?.saturatingIntValue
            info.supportsToolCalls = props["chat_template_caps"]?["supports_tool_calls"]?.boolValue
            let file = props["model_path"]?.stringValue.map { URL(fileURLWithPath: $0).lastPathComponent }
            info.modelName =
                props["model_alias"]?.stringValue ?? file.map { URL(fileURLWithPath: $0).deletingPathExtension().path }
            let build = props["build_info"]?.stringValue.map { "llama.cpp \($0)" }
            info.build = [file, build].compactMap { $0 }.joined(separator: " ").nilIfEmpty
            info.canTokenize = true
            // The slot table keeps an entry per slot: a server claiming 2^63-1 slots gets the most it could have.
            info.slotCount = props["total_slots"]?.saturatingIntValue.flatMap {
                $0 > 0 ? min($0, Self.maximumSlotCount) : nil
            }
            noteAvailability(.available)  // llama-server serves the one model it loaded, whatever the name asked.
        } else if let models = try await optionalGet(configuration.baseURL + "/models") {
            let entries = models["data"]?.arrayValue ?? []
            if models["data"]?.arrayValue != nil {
                let ids = entries.compactMap { $0["id"]?.stringValue }
                noteAvailability(Self.lists(configuration.model, in: ids) ? .available : .unavailable(.modelMissing))
            }
            let entry = entries.first { $0["id"]?.stringValue == configuration.model } ?? entries.first
            info.modelName = entry?["id"]?.stringValue
            info.contextSize =
                entry?["meta"]?["n_ctx_train"]?.saturatingIntValue ?? entry?["max_model_len"]?.saturatingIntValue
                ?? entry?["context_length"]?.saturatingIntValue
            // Ollama names the owner of its models by their namespace: `library` for its own.
            if entries.contains(where: { ["library", "ollama"].contains($0["owned_by"]?.stringValue ?? "") }) {
                info.kind = .ollama
            }
        }
        if info.kind == .generic, URL(string: configuration.baseURL)?.port == Self.ollamaPort { info.kind = .ollama }
        // A window of 0, -5 or 1 token fits no conversation: refused here (at start, by `connect`), not turn by turn.
        if let size = configuration.contextSize ?? info.contextSize, size < Self.minimumContextSize {
            throw ModelServerError.contextTooSmall.with(url: configuration.baseURL, detail: "\(size)")
        }
        let result = info
        discovered.withLock { $0 = result }
        return result
    }

    /// Stops using the server's tokenizer after it failed, so counting falls back to the estimate.
    private func stopTokenizing() {
        discovered.withLock { $0?.canTokenize = false }
    }

    /// The tool-calling mode for this server.
    private func resolvedToolCalling() async throws -> ToolCallingMode {
        switch configuration.toolCalling {
        case .native, .constrained: return configuration.toolCalling
        case .automatic: return try await serverInfo().supportsToolCalls == false ? .constrained : .native
        }
    }

    /// Ollama's default port.
    static let ollamaPort = 11434

    func builder(for request: GenerationRequest) async throws -> (ChatRequestBuilder, ConstrainedToolCalling?) {
        let mode = try await resolvedToolCalling()
        let info = try await serverInfo()
        let builder = ChatRequestBuilder(
            modelName: configuration.model, toolCalling: mode,
            sendsServerExtensions: configuration.sendsServerExtensions,
            extraBody: configuration.extraBody, budgetTokens: configuration.budgetTokens(for: request),
            repetition: configuration.repetition, serverSettings: info.generationSettings,
            stop: configuration.stopSequences(for: info.kind))
        let constrained =
            mode == .constrained && !request.tools.isEmpty
            ? ConstrainedToolCalling(
                tools: ConstrainedToolCalling.callableTools(request), responseSchema: request.schema)
            : nil
        return (builder, constrained)
    }

    static func makeCallID() -> String { "call_" + RandomID.uuidString().prefix(12).lowercased() }

    static func excerpt(_ text: String) -> String { text.count > 300 ? String(text.prefix(300)) + "…" : text }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}

/// What a server said about itself, read once and shared by a backend and its copies.
private final class SharedServerInfo: Sendable {
    // The Mutex protects the value; the class only lets copies of a backend share it.
    private let value = Mutex<OpenAICompatibleLanguageModel.ServerInfo?>(nil)

    func withLock<Result: Sendable>(
        _ body: (inout OpenAICompatibleLanguageModel.ServerInfo?) -> Result
    ) -> Result {
        value.withLock { body(&$0) }
    }
}
