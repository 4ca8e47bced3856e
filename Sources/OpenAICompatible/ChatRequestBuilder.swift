import LanguageModels
import ParleyBasics
import ParleyJSON

/// Turns a `GenerationRequest` into an OpenAI chat-completions body.
///
/// The same transcript always gives the same bytes (in the same slot), and a transcript that grew by a turn gives a
/// body whose messages start with exactly the previous body's messages, so servers that cache prompts by prefix
/// (llama-server's `cache_prompt`, vLLM's prefix caching, OpenAI's prompt caching) reuse their work.
struct ChatRequestBuilder: Sendable {
    /// The `model` field; `nil` leaves it out (llama-server serves one model and ignores it).
    var modelName: String?
    /// Whether tools go through the `tools` parameter or constrained output.
    var toolCalling: ToolCallingMode
    /// Whether to send parameters beyond OpenAI's (`top_k`, `cache_prompt`), which llama.cpp, vLLM and Ollama
    /// accept and OpenAI rejects.
    var sendsServerExtensions: Bool
    /// Fields merged into every body last, overriding Parley's.
    var extraBody: JSONObject
    /// The `max_tokens` of a plain-text or constrained-reply request that sets no `maximumResponseTokens` (from the
    /// sentence budget); `nil` for none.
    var budgetTokens: Int? = nil
    /// The penalties and samplers sent on requests for text.
    var repetition: RepetitionControl = .off
    /// The generation settings the server lists; llama-server's samplers are sent only when listed here.
    var serverSettings: Set<String> = []
    /// The `stop` strings of requests without `response_format`.
    var stop: [String] = []

    // MARK: - Messages

    /// The chat messages for a transcript.
    func messages(for transcript: Transcript, tools: [Transcript.ToolDefinition]) -> [JSONValue] {
        let constrained = toolCalling == .constrained && !tools.isEmpty
        var messages: [JSONValue] = []
        var sawInstructions = false
        for entry in transcript {
            switch entry {
            case .instructions(let instructions):
                sawInstructions = true
                var text = plainText(instructions.segments)
                if constrained {
                    text = [text, ConstrainedToolCalling.systemPrompt(for: tools)].filter { !$0.isEmpty }
                        .joined(separator: "\n\n")
                }
                messages.append(message("system", text))
            case .prompt(let prompt):
                var text = plainText(prompt.segments)
                if let format = prompt.responseFormat {
                    text += "\n\nAnswer with JSON that follows this schema: " + format.schema.jsonSchema.jsonString()
                }
                messages.append(message("user", text))
            case .response(let response):
                let text = plainText(response.segments)
                let isStructured = response.segments.contains { if case .structure = $0 { true } else { false } }
                messages.append(
                    message(
                        "assistant",
                        constrained && !isStructured ? ConstrainedToolCalling.assistantContent(forReply: text) : text))
            case .toolCalls(let calls):
                if constrained || toolCalling == .constrained {
                    messages.append(message("assistant", ConstrainedToolCalling.assistantContent(for: calls)))
                } else {
                    messages.append(
                        .object(
                            JSONObject([
                                ("role", "assistant"), ("content", .null),
                                ("tool_calls", .array(calls.map(toolCall))),
                            ])))
                }
            case .toolOutput(let output):
                if constrained || toolCalling == .constrained {
                    messages.append(message("user", ConstrainedToolCalling.userContent(for: output)))
                } else {
                    messages.append(
                        .object(
                            JSONObject([
                                ("role", "tool"), ("tool_call_id", .string(output.id)),
                                ("content", .string(plainText(output.segments))),
                            ])))
                }
            case .reasoning:
                continue  // Reasoning is the model's own; servers do not take it back.
            case .unknown:
                continue  // An entry a newer framework wrote, which this version cannot say to a server.
            }
        }
        if constrained, !sawInstructions {
            messages.insert(message("system", ConstrainedToolCalling.systemPrompt(for: tools)), at: 0)
        }
        return messages
    }

    private func message(_ role: String, _ content: String) -> JSONValue {
        .object(JSONObject([("role", .string(role)), ("content", .string(content))]))
    }

    private func toolCall(_ call: Transcript.ToolCall) -> JSONValue {
        .object(
            JSONObject([
                ("id", .string(call.id)), ("type", "function"),
                (
                    "function",
                    .object(
                        JSONObject([
                            ("name", .string(call.toolName)), ("arguments", .string(call.arguments.jsonString)),
                        ]))
                ),
            ]))
    }

    /// Segments as plain text: text as it is, structured content as compact JSON.
    private func plainText(_ segments: [Transcript.Segment]) -> String {
        segments.map(\.description).joined(separator: "\n")
    }

    // MARK: - Body

    /// The request body.
    ///
    /// - Parameters:
    ///   - request: The session's request.
    ///   - stream: Whether to ask for server-sent events.
    ///   - constrainedRoom: The tokens allowed beside `maximumResponseTokens` in constrained tool calling.
    ///   - slot: The llama-server slot to run in (`id_slot`), or `nil` to let the server choose.
    func body(
        for request: GenerationRequest, stream: Bool, constrainedRoom: Int = constrainedOverhead, slot: Int? = nil
    ) -> JSONValue {
        var body = JSONObject()
        if let modelName { body["model"] = .string(modelName) }
        body["messages"] = .array(messages(for: request.transcript, tools: request.tools))
        let constrained = toolCalling == .constrained && !request.tools.isEmpty
        if !request.tools.isEmpty, !constrained {
            body["tools"] = .array(
                request.tools.map { tool in
                    [
                        "type": "function",
                        "function": [
                            "name": .string(tool.name), "description": .string(tool.description),
                            "parameters": tool.parameters.jsonSchema,
                        ],
                    ]
                })
        }
        if constrained {
            let format = ConstrainedToolCalling(
                tools: ConstrainedToolCalling.callableTools(request), responseSchema: request.schema)
            body["response_format"] = responseFormat(name: "tool_call_or_reply", schema: format.outputSchema)
        } else if let schema = request.schema {
            body["response_format"] = responseFormat(name: schema.name, schema: schema.jsonSchema)
        }
        body["stream"] = .bool(stream)
        if stream { body["stream_options"] = ["include_usage": true] }
        apply(request.options, to: &body)
        let guided = request.schema != nil && !constrained
        if let maximum = replyTokens(for: request) {
            body["max_tokens"] = .integer(
                maximum.saturatingAdding(room(for: request, constrainedRoom: constrainedRoom)))
        }
        if !guided {
            for (key, value) in repetition.penaltyFields { body[key] = value }
            if sendsServerExtensions {
                for (key, value) in repetition.samplerFields where serverSettings.contains(key) { body[key] = value }
            }
        }
        if body["response_format"] == nil, !stop.isEmpty { body["stop"] = .array(stop.map { .string($0) }) }
        if sendsServerExtensions { body["cache_prompt"] = true }
        if let slot { body["id_slot"] = .integer(slot) }
        for (key, value) in extraBody { body[key] = value }
        return .object(body)
    }

    private func responseFormat(name: String, schema: JSONValue) -> JSONValue {
        [
            "type": "json_schema",
            "json_schema": ["name": .string(sanitizedName(name)), "strict": true, "schema": schema],
        ]
    }

    /// OpenAI allows only `[a-zA-Z0-9_-]` in schema names.
    private func sanitizedName(_ name: String) -> String {
        let allowed = name.unicodeScalars.map { scalar -> Character in
            scalar.properties.isASCIIHexDigit || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || scalar == "_" || scalar == "-" ? Character(scalar) : "_"
        }
        return allowed.isEmpty ? "response" : String(allowed)
    }

    /// The tokens the reply may take: `maximumResponseTokens`, or else the sentence budget's for a request for
    /// text; `nil` when neither limits it.
    func replyTokens(for request: GenerationRequest) -> Int? {
        request.options.maximumResponseTokens ?? (request.schema == nil ? budgetTokens : nil)
    }

    /// The tokens allowed beside the reply's limit, which is for what the NPC says: in constrained tool calling,
    /// room for the JSON around the reply or for a tool call; with native tools and a limit from the sentence
    /// budget, room for a tool call.
    func room(for request: GenerationRequest, constrainedRoom: Int = constrainedOverhead) -> Int {
        guard !request.tools.isEmpty else { return 0 }
        if toolCalling == .constrained { return constrainedRoom }
        return request.options.maximumResponseTokens == nil ? constrainedRoom : 0
    }

    /// Tokens added to `maximumResponseTokens` in constrained tool-calling mode, for the JSON wrapper or a tool
    /// call with its arguments.
    static let constrainedOverhead = 48

    /// The room for a second attempt at a tool call that the first one's `max_tokens` cut off (a small model can
    /// pad its JSON with whitespace or write long arguments).
    static let constrainedRetryRoom = 256

    /// Sampling options as the server's fields: temperature, top_p, top_k (extension), seed, max_tokens.
    private func apply(_ options: GenerationOptions, to body: inout JSONObject) {
        if let sampling = options.sampling {
            if sampling.isGreedy {
                body["temperature"] = 0
                if sendsServerExtensions { body["top_k"] = 1 }
            }
            if let k = sampling.topK, sendsServerExtensions { body["top_k"] = .integer(k) }
            if let p = sampling.probabilityThreshold { body["top_p"] = .double(p) }
            if let seed = sampling.seed { body["seed"] = .integer(seed) }
        }
        if let temperature = options.temperature, options.sampling?.isGreedy != true {
            body["temperature"] = .double(temperature)
        }
        if let maximum = options.maximumResponseTokens { body["max_tokens"] = .integer(maximum) }
    }
}
