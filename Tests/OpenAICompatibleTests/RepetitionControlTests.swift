import Foundation
import HTTPTestSupport
import LanguageModels
import ParleyJSON
import Testing

@testable import OpenAICompatible

/// A loopback server that looks like one kind of model server to the backend's discovery, and answers every chat
/// request with the same short completion.
struct FakeModelServer {
    enum Kind: Sendable, CustomStringConvertible {
        /// llama-server whose `/props` lists these generation settings, under `params` or (older builds) directly.
        case llama(settings: [String], nested: Bool)
        /// Ollama: no `/props`; `/v1/models` names models owned by `library`.
        case ollama
        /// OpenAI or vLLM: no `/props`; `/v1/models` names other owners.
        case generic

        var description: String {
            switch self {
            case .llama(let settings, let nested): "llama-server \(nested ? "params" : "flat") \(settings)"
            case .ollama: "Ollama"
            case .generic: "generic"
            }
        }
    }

    static let allSamplers = ["repeat_penalty", "repeat_last_n", "dry_multiplier", "dry_base", "dry_allowed_length"]

    let server: LoopbackHTTPServer

    init(_ kind: Kind, chat: LoopbackResponse = .json(ServerTest.completion("Three gold."))) throws {
        server = try LoopbackHTTPServer { request in
            switch (request.path, kind) {
            case ("/props", .llama(let settings, let nested)):
                var values = JSONObject([("temperature", 0.8), ("top_k", 40)])
                for key in settings { values[key] = 1 }
                var defaults = JSONObject([("n_ctx", 4096)])
                if nested {
                    defaults["params"] = .object(values)
                } else {
                    for (key, value) in values { defaults[key] = value }
                }
                let props: JSONValue = [
                    "default_generation_settings": .object(defaults), "total_slots": 1,
                    "model_path": "/models/smol.gguf", "chat_template_caps": ["supports_tool_calls": true],
                ]
                return .json(props.jsonString())
            case ("/v1/models", .ollama):
                return .json(
                    #"{"object":"list","data":[{"id":"llama3.2:latest","object":"model","created":1,"owned_by":"library"}]}"#
                )
            case ("/v1/models", .generic):
                return .json(#"{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","owned_by":"system"}]}"#)
            case ("/v1/chat/completions", _):
                return chat
            default:
                return .text("not found", status: 404)
            }
        }
    }

    /// A backend for this server.
    func model(
        toolCalling: ToolCallingMode = .native,
        _ configure: (inout OpenAICompatibleLanguageModel.Configuration) -> Void =
            { _ in }
    ) throws -> OpenAICompatibleLanguageModel {
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", apiKey: nil, contextSize: 1 << 20, toolCalling: toolCalling)
        configuration.maximumRetries = 0
        configure(&configuration)
        return try OpenAICompatibleLanguageModel(configuration: configuration)
    }

    /// The body of the last chat request.
    func lastBody() throws -> JSONValue {
        try JSONValue(parsing: Array(try #require(ServerTest.chatRequests(server).last).body))
    }

    /// Sends `request` (not streamed) and returns the body the server received.
    func body(
        of request: GenerationRequest, on model: OpenAICompatibleLanguageModel
    ) async throws -> JSONValue {
        _ = try await model.generate(request)
        return try lastBody()
    }
}

/// What a request for text carries to keep replies short and free of loops: `max_tokens` from the sentence budget,
/// penalties and samplers, and stop strings; and what requests for structured output do not carry.
@Suite(.timeLimit(.minutes(10))) struct RepetitionControlTests {
    static func text(options: GenerationOptions = GenerationOptions()) -> GenerationRequest {
        GenerationRequest(transcript: sampleTranscript(), options: options)
    }

    static func withTools(options: GenerationOptions = GenerationOptions()) -> GenerationRequest {
        GenerationRequest(
            transcript: sampleTranscript(), tools: sampleTranscript().instructions!.toolDefinitions, options: options)
    }

    static func guided() throws -> GenerationRequest {
        let schema = try GenerationSchema(jsonSchema: [
            "type": "object", "title": "Offer", "properties": ["price": ["type": "integer"]], "required": ["price"],
        ])
        return GenerationRequest(transcript: sampleTranscript(), schema: schema)
    }

    static let penaltyKeys = ["frequency_penalty", "presence_penalty"]

    // MARK: - Penalties and samplers

    @Test(arguments: [
        (FakeModelServer.Kind.llama(settings: FakeModelServer.allSamplers, nested: true), FakeModelServer.allSamplers),
        (.llama(settings: ["repeat_penalty", "repeat_last_n"], nested: false), ["repeat_penalty", "repeat_last_n"]),
        (.llama(settings: ["dry_multiplier", "dry_base"], nested: true), ["dry_multiplier", "dry_base"]),
        (.llama(settings: [], nested: true), []),
        (.ollama, []),
        (.generic, []),
    ])
    func penaltiesAlwaysAndSamplersOnlyWhenPropsListThem(
        _ kind: FakeModelServer.Kind, _ samplers: [String]
    )
        async throws
    {
        let fake = try FakeModelServer(kind)
        let body = try await fake.body(of: Self.text(), on: fake.model())
        #expect(body["frequency_penalty"] == 0.3)
        #expect(body["presence_penalty"] == 0.2)
        let sent = FakeModelServer.allSamplers.filter { body[$0] != nil }
        #expect(sent == samplers, "\(kind)")
        let standard: [String: JSONValue] = [
            "repeat_penalty": 1.1, "repeat_last_n": 64, "dry_multiplier": 0.8, "dry_base": 1.75,
            "dry_allowed_length": 2,
        ]
        for key in sent { #expect(body[key] == standard[key], "\(key)") }
    }

    @Test func samplersAreServerExtensions() async throws {
        let fake = try FakeModelServer(.llama(settings: FakeModelServer.allSamplers, nested: true))
        let body = try await fake.body(of: Self.text(), on: fake.model { $0.sendsServerExtensions = false })
        #expect(FakeModelServer.allSamplers.allSatisfy { body[$0] == nil })
        #expect(body["frequency_penalty"] == 0.3)
        #expect(body["cache_prompt"] == nil)
    }

    @Test func theSettingsAreReadOnceFromProps() async throws {
        let fake = try FakeModelServer(.llama(settings: ["repeat_penalty", "dry_base"], nested: true))
        let model = try fake.model()
        let info = try await model.serverInfo()
        #expect(info.kind == .llamaServer)
        #expect(info.generationSettings.isSuperset(of: ["repeat_penalty", "dry_base", "temperature"]))
        #expect(!info.generationSettings.contains("dry_multiplier"))
        _ = try await model.generate(Self.text())
        _ = try await model.replying(inAtMost: 2).generate(Self.text())
        #expect(fake.server.requests.filter { $0.path == "/props" }.count == 1)
    }

    @Test func repetitionControlIsConfigurable() async throws {
        let fake = try FakeModelServer(.llama(settings: FakeModelServer.allSamplers, nested: true))
        let off = try await fake.body(of: Self.text(), on: fake.model { $0.repetition = .off })
        #expect((Self.penaltyKeys + FakeModelServer.allSamplers).allSatisfy { off[$0] == nil })
        let custom = try await fake.body(
            of: Self.text(),
            on: fake.model { $0.repetition = RepetitionControl(frequencyPenalty: 0.5, repeatPenalty: nil) })
        #expect(custom["frequency_penalty"] == 0.5)
        #expect(custom["presence_penalty"] == 0.2)
        #expect(custom["repeat_penalty"] == nil)
        #expect(custom["dry_multiplier"] == 0.8)
        #expect(RepetitionControl() == .standard)
        #expect(RepetitionControl.standard != .off)
    }

    @Test func extraBodyOverridesEverything() async throws {
        let fake = try FakeModelServer(.llama(settings: FakeModelServer.allSamplers, nested: true))
        let body = try await fake.body(
            of: Self.text(),
            on: fake.model {
                $0.maximumSentences = 2
                $0.extraBody = JSONObject([
                    ("repeat_penalty", 1.3), ("frequency_penalty", 0), ("stop", .array(["END"])), ("max_tokens", 7),
                ])
            })
        #expect(body["repeat_penalty"] == 1.3)
        #expect(body["frequency_penalty"] == 0)
        #expect(body["stop"] == ["END"])
        #expect(body["max_tokens"] == 7)
    }

    // MARK: - Stop strings

    static let allStops: JSONValue = ["\nPlayer:", "\nUser:", "\nYou:", "<|im_end|>", "<|im_start|>"]

    @Test(arguments: [
        (FakeModelServer.Kind.llama(settings: [], nested: true), allStops),
        (.ollama, allStops),
        (.generic, JSONValue.array(["\nPlayer:", "\nUser:", "\nYou:", "<|im_end|>"])),
    ])
    func stopStringsFollowTheServerKind(_ kind: FakeModelServer.Kind, _ expected: JSONValue) async throws {
        let fake = try FakeModelServer(kind)
        let model = try fake.model()
        #expect(try await fake.body(of: Self.text(), on: model)["stop"] == expected)
        // Requests with native tools are plain text too.
        #expect(try await fake.body(of: Self.withTools(), on: model)["stop"] == expected)
    }

    @Test func configuredStopStrings() async throws {
        let fake = try FakeModelServer(.generic)
        #expect(try await fake.body(of: Self.text(), on: fake.model { $0.stop = [] })["stop"] == nil)
        #expect(try await fake.body(of: Self.text(), on: fake.model { $0.stop = ["\nMira:"] })["stop"] == ["\nMira:"])
        let six = ["a", "b", "c", "d", "e", "f"]
        #expect(try await fake.body(of: Self.text(), on: fake.model { $0.stop = six })["stop"] == ["a", "b", "c", "d"])
        let llama = try FakeModelServer(.llama(settings: [], nested: true))
        #expect(
            try await llama.body(of: Self.text(), on: llama.model { $0.stop = six })["stop"]
                == .array(six.map { .string($0) }))
    }

    // MARK: - Structured output is left alone

    @Test func guidedGenerationGetsNoStopPenaltiesSamplersOrBudget() async throws {
        let fake = try FakeModelServer(
            .llama(settings: FakeModelServer.allSamplers, nested: true),
            chat: .json(ServerTest.completion(#"{"price":3}"#)))
        let body = try await fake.body(of: try Self.guided(), on: fake.model { $0.maximumSentences = 2 })
        #expect(body["response_format"]?["type"] == "json_schema")
        #expect(body["stop"] == nil)
        #expect(body["max_tokens"] == nil)
        #expect((Self.penaltyKeys + FakeModelServer.allSamplers).allSatisfy { body[$0] == nil })
    }

    @Test func constrainedToolCallingGetsPenaltiesAndBudgetButNoStop() async throws {
        let fake = try FakeModelServer(
            .llama(settings: FakeModelServer.allSamplers, nested: true),
            chat: .json(ServerTest.completion(#"{"reply":"Three gold."}"#)))
        let body = try await fake.body(
            of: Self.withTools(), on: fake.model(toolCalling: .constrained) { $0.maximumSentences = 2 })
        #expect(body["response_format"]?["json_schema"]?["name"] == "tool_call_or_reply")
        #expect(body["stop"] == nil)
        #expect(body["frequency_penalty"] == 0.3)
        #expect(body["repeat_penalty"] == 1.1)
        #expect(body["max_tokens"] == .integer(2 * 40 + ChatRequestBuilder.constrainedOverhead))
    }

    // MARK: - max_tokens from the sentence budget

    @Test func maxTokensComesFromTheBudgetUnlessTheRequestSetsIt() async throws {
        let fake = try FakeModelServer(.generic)
        let budget = try fake.model { $0.maximumSentences = 3 }
        #expect(try await fake.body(of: Self.text(), on: budget)["max_tokens"] == 120)
        // With native tools, a tool call gets room of its own beside the reply's.
        #expect(
            try await fake.body(of: Self.withTools(), on: budget)["max_tokens"]
                == .integer(120 + ChatRequestBuilder.constrainedOverhead))
        let explicitWithTools = Self.withTools(options: GenerationOptions(maximumResponseTokens: 50))
        #expect(try await fake.body(of: explicitWithTools, on: budget)["max_tokens"] == 50)
        let explicit = Self.text(options: GenerationOptions(maximumResponseTokens: 50))
        #expect(try await fake.body(of: explicit, on: budget)["max_tokens"] == 50)
        let denser = try fake.model {
            $0.maximumSentences = 3
            $0.tokensPerSentence = 25
        }
        #expect(try await fake.body(of: Self.text(), on: denser)["max_tokens"] == 75)
        #expect(try await fake.body(of: Self.text(), on: fake.model())["max_tokens"] == nil)
        #expect(try await fake.body(of: Self.text(), on: budget.replying(inAtMost: nil))["max_tokens"] == nil)
        #expect(try await fake.body(of: Self.text(), on: fake.model().replying(inAtMost: 1))["max_tokens"] == 40)
    }

    @Test func theBudgetsTokensAreCountedForTheContextCheck() async throws {
        let fake = try FakeModelServer(.generic)
        let plain = try await fake.model().tokenCount(for: Self.text())
        #expect(try await fake.model { $0.maximumSentences = 3 }.tokenCount(for: Self.text()) == plain + 120)
        let explicit = Self.text(options: GenerationOptions(maximumResponseTokens: 50))
        // An explicit limit is reserved by the session itself.
        #expect(try await fake.model { $0.maximumSentences = 3 }.tokenCount(for: explicit) == plain)
        let tools = try await fake.model().tokenCount(for: Self.withTools())
        #expect(
            try await fake.model { $0.maximumSentences = 3 }.tokenCount(for: Self.withTools())
                == tools + 120 + ChatRequestBuilder.constrainedOverhead)
    }

    // MARK: - Determinism

    @Test func theSameTranscriptGivesTheSameBytes() async throws {
        let fake = try FakeModelServer(.llama(settings: FakeModelServer.allSamplers, nested: true))
        let model = try fake.model { $0.maximumSentences = 2 }
        for request in [Self.text(), Self.withTools()] {
            _ = try await model.generate(request)
            _ = try await model.generate(request)
            _ = try await model.replying(inAtMost: 2).generate(request)
            let bodies = ServerTest.chatRequests(fake.server).suffix(3).map(\.body)
            #expect(bodies.count == 3)
            #expect(Set(bodies).count == 1)
        }
    }

    @Test func aCopyKeepsTheBackendsIdentityAndChangesOnlyTheBudget() async throws {
        let fake = try FakeModelServer(.generic)
        let model = try fake.model { $0.cutsLoops = false }
        let copy = model.replying(inAtMost: 4)
        #expect(copy.id == model.id && copy.version == model.version)
        #expect(copy.configuration.maximumSentences == 4)
        #expect(copy.configuration.cutsLoops == false)
        #expect(model.configuration.maximumSentences == nil)
        #expect(copy.client === model.client)
    }
}
