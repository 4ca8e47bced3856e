import Foundation
import LanguageModels
import ParleyHTTP
import ParleyJSON
import Testing

@testable import OpenAICompatible

/// The transcript used by the request-building tests: every entry type.
func sampleTranscript() -> Transcript {
    let lookUp = Transcript.ToolDefinition(
        name: "lookUpStock", description: "Looks up an item.",
        parameters: try! GenerationSchema(jsonSchema: [
            "type": "object", "properties": ["item": ["type": "string"]], "required": ["item"],
        ]))
    return Transcript(entries: [
        .instructions(.init(segments: [.text(.init(content: "You are Mira."))], toolDefinitions: [lookUp])),
        .prompt(.init(segments: [.text(.init(content: "Rope?"))])),
        .toolCalls(
            .init([
                Transcript.ToolCall(
                    id: "c1", toolName: "lookUpStock", arguments: GeneratedContent(properties: ["item": "rope"]))
            ])),
        .toolOutput(.init(id: "c1", toolName: "lookUpStock", segments: [.text(.init(content: "rope: 3 gold"))])),
        .reasoning(.init(segments: [.text(.init(content: "cheap"))])),
        .response(.init(segments: [.text(.init(content: "Three gold."))])),
        .prompt(.init(segments: [.text(.init(content: "Deal."))])),
    ])
}

@Suite struct ChatRequestBuilderTests {
    let tools = sampleTranscript().instructions!.toolDefinitions

    func builder(
        _ mode: ToolCallingMode, extensions: Bool = true, extra: JSONObject = JSONObject()
    ) -> ChatRequestBuilder {
        ChatRequestBuilder(modelName: "smol", toolCalling: mode, sendsServerExtensions: extensions, extraBody: extra)
    }

    @Test(arguments: [
        (GenerationOptions.ToolCallingMode?.none, JSONValue?.none), (.allowed, nil), (.required, "required"),
        (.disallowed, "none"),
    ])
    func toolCallingModeIsSentAsToolChoice(_ mode: GenerationOptions.ToolCallingMode?, _ choice: JSONValue?) {
        let tools = sampleTranscript().instructions!.toolDefinitions
        var options = GenerationOptions()
        options.toolCallingMode = mode
        let request = GenerationRequest(transcript: sampleTranscript(), tools: tools, options: options)
        #expect(builder(.native).body(for: request, stream: false)["tool_choice"] == choice)
        // Without tools in the request (the session leaves them out for `.disallowed`) there is nothing to choose,
        // and constrained tool calling sends no `tools` parameter, so no `tool_choice` either.
        let bare = GenerationRequest(transcript: sampleTranscript(), tools: [], options: options)
        #expect(builder(.native).body(for: bare, stream: false)["tool_choice"] == nil)
        #expect(builder(.constrained).body(for: request, stream: false)["tool_choice"] == nil)
    }

    @Test func nativeMessagesFollowOpenAIsShapes() throws {
        let messages = builder(.native).messages(for: sampleTranscript(), tools: tools)
        let expected = try JSONValue(
            parsing: #"""
                [{"role":"system","content":"You are Mira."},
                 {"role":"user","content":"Rope?"},
                 {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"lookUpStock","arguments":"{\"item\":\"rope\"}"}}]},
                 {"role":"tool","tool_call_id":"c1","content":"rope: 3 gold"},
                 {"role":"assistant","content":"Three gold."},
                 {"role":"user","content":"Deal."}]
                """#)
        #expect(JSONValue.array(messages) == expected)
    }

    @Test func constrainedMessagesTeachTheFormat() throws {
        let messages = builder(.constrained).messages(for: sampleTranscript(), tools: tools)
        #expect(messages.count == 6)
        let system = try #require(messages[0]["content"]?.stringValue)
        #expect(system.hasPrefix("You are Mira.\n\nYou can use tools."))
        #expect(system.contains(#"- lookUpStock: Looks up an item. Arguments: {"type":"object""#))
        #expect(
            messages[2] == ["role": "assistant", "content": #"{"tool":"lookUpStock","arguments":{"item":"rope"}}"#])
        #expect(messages[3] == ["role": "user", "content": "Result of lookUpStock: rope: 3 gold"])
        #expect(messages[4] == ["role": "assistant", "content": #"{"reply":"Three gold."}"#])
    }

    @Test func bodiesCarryToolsFormatsAndOptions() throws {
        let request = GenerationRequest(
            transcript: sampleTranscript(), tools: tools, schema: nil,
            options: GenerationOptions(sampling: .random(top: 40, seed: 7), temperature: 0.5, maximumResponseTokens: 64)
        )
        let body = builder(.native, extra: JSONObject([("repeat_penalty", 1.1), ("temperature", 0.2)])).body(
            for: request, stream: true)
        #expect(body["model"] == "smol")
        #expect(body["tools"]?[0]?["function"]?["name"] == "lookUpStock")
        #expect(body["stream"] == true)
        #expect(body["stream_options"] == ["include_usage": true])
        #expect(body["top_k"] == 40)
        #expect(body["seed"] == 7)
        #expect(body["max_tokens"] == 64)
        #expect(body["cache_prompt"] == true)
        #expect(body["repeat_penalty"] == 1.1)
        #expect(body["temperature"] == 0.2)  // extra body overrides

        let greedy = builder(.native, extensions: false).body(
            for: GenerationRequest(transcript: sampleTranscript(), options: .init(sampling: .greedy)), stream: false)
        #expect(greedy["temperature"] == 0)
        #expect(greedy["top_k"] == nil)
        #expect(greedy["cache_prompt"] == nil)
        #expect(greedy["tools"] == nil)
    }

    @Test func constrainedBodiesAskForToolCallOrReply() throws {
        let request = GenerationRequest(transcript: sampleTranscript(), tools: tools)
        let body = builder(.constrained).body(for: request, stream: false)
        #expect(body["tools"] == nil)
        let schema = try #require(body["response_format"]?["json_schema"]?["schema"])
        #expect(schema["anyOf"]?[0]?["properties"]?["tool"] == ["type": "string", "const": "lookUpStock"])
        #expect(schema["anyOf"]?[1]?["required"] == ["reply"])
        // Both shapes validate against the schema; other JSON does not.
        let validator = try GenerationSchema(jsonSchema: schema)
        #expect(
            validator.validate(try GeneratedContent(json: #"{"tool":"lookUpStock","arguments":{"item":"rope"}}"#))
                .isEmpty)
        #expect(validator.validate(try GeneratedContent(json: #"{"reply":"hi"}"#)).isEmpty)
        #expect(!validator.validate(try GeneratedContent(json: #"{"tool":"summon","arguments":{}}"#)).isEmpty)
    }

    @Test func aToolAlreadyCalledThisTurnCannotBeCalledAgain() throws {
        var transcript = sampleTranscript()
        transcript.removeLast()  // the turn is: prompt "Rope?", tool call, tool output, ...
        transcript.removeLast(2)  // ... without the reasoning and the response
        let body = builder(.constrained).body(
            for: GenerationRequest(transcript: transcript, tools: tools), stream: false)
        let schema = try #require(body["response_format"]?["json_schema"]?["schema"])
        #expect(schema["anyOf"]?.arrayValue?.count == 1)
        #expect(schema["anyOf"]?[0]?["required"] == ["reply"])
        // The system message, and so the cached prefix, does not change.
        let first = builder(.constrained).body(
            for: GenerationRequest(transcript: sampleTranscript(), tools: tools), stream: false)
        #expect(body["messages"]?[0] == first["messages"]?[0])
    }

    @Test func guidedGenerationSendsTheSchema() throws {
        let schema = try GenerationSchema(jsonSchema: [
            "type": "object", "title": "Offer", "properties": ["price": ["type": "integer"]],
        ])
        var transcript = sampleTranscript()
        transcript.append(
            .prompt(.init(segments: [.text(.init(content: "Offer?"))], responseFormat: .init(schema: schema))))
        let body = builder(.native).body(for: GenerationRequest(transcript: transcript, schema: schema), stream: false)
        #expect(body["response_format"]?["type"] == "json_schema")
        #expect(body["response_format"]?["json_schema"]?["name"] == "Offer")
        #expect(body["response_format"]?["json_schema"]?["schema"] == schema.jsonSchema)
        let last = try #require(body["messages"]?.arrayValue?.last?["content"]?.stringValue)
        #expect(last.hasPrefix("Offer?\n\nAnswer with JSON that follows this schema: {"))
    }

    /// The prompt-cache contract: a grown transcript's messages start with the earlier messages, byte for byte.
    @Test(arguments: [ToolCallingMode.native, .constrained])
    func theMessagePrefixIsStableFromTurnToTurn(_ mode: ToolCallingMode) {
        let earlier = sampleTranscript()
        var later = earlier
        later.append(.response(.init(segments: [.text(.init(content: "Deal!"))])))
        later.append(.prompt(.init(segments: [.text(.init(content: "Bye."))])))
        let builder = builder(mode)
        let a = builder.messages(for: earlier, tools: tools).map { $0.jsonString() }
        let b = builder.messages(for: later, tools: tools).map { $0.jsonString() }
        #expect(Array(b.prefix(a.count)) == a)
        #expect(builder.messages(for: earlier, tools: tools).map { $0.jsonString() } == a)  // and deterministic
    }
}

@Suite struct ChatResponseParserTests {
    static func callID() -> String { "generated" }

    @Test func aLlamaServerResponseWithUsage() throws {
        let generation = try ChatResponseParser.generation(
            from: Data(Recorded.llamaChat.utf8), constrained: nil, makeCallID: Self.callID)
        #expect(generation.output == .text("I sell lanterns and rope."))
        #expect(
            generation.usage
                == GenerationUsage(
                    promptTokens: 28, cachedPromptTokens: 20, completionTokens: 7, promptSeconds: 0.1205,
                    generationSeconds: 0.25))
    }

    @Test func toolCallsWithObjectArgumentsAndNoID() throws {
        let generation = try ChatResponseParser.generation(
            from: Data(Recorded.ollamaToolCall.utf8), constrained: nil, makeCallID: Self.callID)
        #expect(
            generation.output
                == .toolCalls([
                    .init(
                        id: "generated", toolName: "lookUpStock",
                        arguments: GeneratedContent(properties: ["item": "lantern"]))
                ]))
    }

    @Test(arguments: [
        #"{"choices":[{"message":{"tool_calls":[{"id":"a","type":"function","function":{"name":"x","arguments":"{\"n\":1}"}}]}}]}"#,
        #"{"choices":[{"message":{"tool_calls":[{"id":"a","name":"x","arguments":"{\"n\":1}"}]},"finish_reason":"tool"}]}"#,
    ])
    func toolCallShapesServersSend(_ body: String) throws {
        let generation = try ChatResponseParser.generation(
            from: Data(body.utf8), constrained: nil, makeCallID: Self.callID)
        #expect(
            generation.output
                == .toolCalls([.init(id: "a", toolName: "x", arguments: GeneratedContent(properties: ["n": 1]))]))
    }

    @Test func reasoningContentBecomesReasoning() throws {
        let body = #"{"choices":[{"message":{"content":"Yes.","reasoning_content":"They asked politely."}}]}"#
        let generation = try ChatResponseParser.generation(
            from: Data(body.utf8), constrained: nil, makeCallID: Self.callID)
        #expect(generation.reasoning == "They asked politely.")
        #expect(generation.output == .text("Yes."))
    }

    @Test(arguments: ["<html>502</html>", #"{"choices":[]}"#, #"{"object":"list"}"#])
    func bodiesThatAreNotCompletionsAreErrors(_ body: String) {
        #expect(throws: ChatResponseParser.InvalidResponse.self) {
            try ChatResponseParser.generation(from: Data(body.utf8), constrained: nil, makeCallID: Self.callID)
        }
    }

    @Test func aRefusalIsALanguageModelError() {
        let body = #"{"choices":[{"message":{"content":null,"refusal":"I can't help with that."}}]}"#
        #expect {
            try ChatResponseParser.generation(from: Data(body.utf8), constrained: nil, makeCallID: Self.callID)
        } throws: { error in
            if case LanguageModelError.refusal(let refusal) = error {
                return refusal.explanationText == "I can't help with that."
            }
            return false
        }
    }

    @Test func constrainedOutputBecomesToolCallsOrText() throws {
        let tools = sampleTranscript().instructions!.toolDefinitions
        let constrained = ConstrainedToolCalling(tools: tools, responseSchema: nil)
        let call = try constrained.parse(
            "{\n  \"tool\": \"lookUpStock\",\n  \"arguments\": {\"item\": \"Lantern\"}\n}", makeCallID: Self.callID)
        #expect(
            call
                == .toolCalls([
                    .init(
                        id: "generated", toolName: "lookUpStock",
                        arguments: GeneratedContent(properties: ["item": "Lantern"]))
                ]))
        #expect(try constrained.parse(#"{"reply": "Hello!"}"#, makeCallID: Self.callID) == .text("Hello!"))
        // A reply cut short by the token limit is what the model said so far; a cut-off tool call is unusable.
        #expect(try constrained.parse(#"{"reply": "cut"#, makeCallID: Self.callID) == .text("cut"))
        #expect(throws: GeneratedContent.ParsingError.self) {
            try constrained.parse(#"{"tool": "lookUp"#, makeCallID: Self.callID)
        }
        #expect(throws: GeneratedContent.ParsingError.self) {
            try constrained.parse(#"{"other": 1}"#, makeCallID: Self.callID)
        }
    }

    @Test(arguments: [
        (Recorded.llamaContextError, 512, 731),
        (Recorded.openAIContextError, 8192, 9034),
    ])
    func contextOverflowErrorsCarryTheCounts(_ body: String, _ contextSize: Int, _ tokens: Int) throws {
        let json = try JSONValue(parsing: body)
        let error = try #require(
            OpenAICompatibleLanguageModel.contextOverflow(
                error: json["error"], message: json["error"]?["message"]?.stringValue ?? ""))
        guard case .contextSizeExceeded(let info) = error else { Issue.record("not a context error"); return }
        #expect(info.contextSize == contextSize)
        #expect(info.tokenCount == tokens)
    }

    @Test func rateLimitResetTimes() {
        let now = Date(timeIntervalSince1970: 1_000)
        #expect(OpenAICompatibleLanguageModel.resetDate(["Retry-After": "30"], now: now) == now.addingTimeInterval(30))
        #expect(
            OpenAICompatibleLanguageModel.resetDate(["x-ratelimit-reset-requests": "6m0s"], now: now)
                == now.addingTimeInterval(360))
        #expect(
            OpenAICompatibleLanguageModel.resetDate(["x-ratelimit-reset-tokens": "250ms"], now: now)
                == now.addingTimeInterval(0.25))
        #expect(
            OpenAICompatibleLanguageModel.resetDate(["Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"], now: now)
                == Date(timeIntervalSince1970: 1_445_412_480))
        #expect(OpenAICompatibleLanguageModel.resetDate([:], now: now) == nil)
    }
}

@Suite struct StreamParsingTests {
    /// Runs a recorded SSE stream through the SSE parser and the accumulator, split into two chunks at `split`.
    func updates(_ stream: String, split: Int, constrained: ConstrainedToolCalling? = nil) throws -> [GenerationUpdate]
    {
        let bytes = Array(stream.utf8)
        var parser = SSEParser()
        var accumulator = ChatStreamAccumulator(constrained: constrained, makeCallID: { "generated" })
        var updates: [GenerationUpdate] = []
        for chunk in [bytes[..<split], bytes[split...]] {
            for event in parser.feed(bytes: chunk) { updates += try accumulator.consume(event.data) }
        }
        if let last = parser.finish() { updates += try accumulator.consume(last.data) }
        #expect(accumulator.finished)
        return updates + (try accumulator.finish())
    }

    func text(_ updates: [GenerationUpdate]) -> String {
        updates.map { if case .text(let t) = $0 { t } else { "" } }.joined()
    }

    @Test func textStreamsAcrossEveryChunkBoundary() throws {
        let bytes = Recorded.llamaStream.utf8.count
        for split in 0...bytes {
            let updates = try updates(Recorded.llamaStream, split: split)
            #expect(text(updates) == "I'm glad you're here — café!", "split at \(split)")
            guard case .usage(let usage)? = updates.last else { Issue.record("no usage at split \(split)"); continue }
            #expect(usage.promptTokens == 32 && usage.cachedPromptTokens == 5 && usage.completionTokens == 8)
            #expect(abs((usage.promptSeconds ?? 0) - 1.31536) < 1e-9)
        }
    }

    @Test func toolCallDeltasJoinByIndexAcrossEveryChunkBoundary() throws {
        for split in 0...Recorded.openAIToolCallStream.utf8.count {
            let updates = try updates(Recorded.openAIToolCallStream, split: split)
            #expect(
                updates == [
                    .toolCalls([
                        .init(
                            id: "call_abc", toolName: "lookUpStock",
                            arguments: GeneratedContent(properties: ["item": "rope"])),
                        .init(id: "call_def", toolName: "appraise", arguments: GeneratedContent(properties: [:])),
                    ])
                ], "split at \(split)")
        }
    }

    @Test func aConstrainedReplyStreamsItsTextAcrossEveryChunkBoundary() throws {
        let constrained = ConstrainedToolCalling(
            tools: sampleTranscript().instructions!.toolDefinitions, responseSchema: nil)
        for split in 0...Recorded.constrainedReplyStream.utf8.count {
            let updates = try updates(Recorded.constrainedReplyStream, split: split, constrained: constrained)
            #expect(text(updates) == #"Twelve gold, "sturdy"."#, "split at \(split)")
            #expect(updates.count >= 2)  // delivered in pieces, not at the end
        }
    }

    @Test func anErrorEventMidStreamIsAnError() {
        var accumulator = ChatStreamAccumulator(constrained: nil, makeCallID: { "x" })
        #expect(throws: ChatResponseParser.InvalidResponse.self) {
            try accumulator.consume(#"{"error":{"message":"slot unavailable"}}"#)
        }
        #expect(throws: ChatResponseParser.InvalidResponse.self) { try accumulator.consume("not json") }
    }
}
