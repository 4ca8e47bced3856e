import Foundation
import HTTPTestSupport
import LanguageModels
import ParleyJSON
import Testing

@testable import OpenAICompatible

/// Counts at the ends of `Int` (a `maximumResponseTokens` of `Int.max`, token counts a hostile server reports)
/// give a request or an error, never an arithmetic overflow.
@Suite(.timeLimit(.minutes(10))) struct HugeCountTests {
    @Test func constrainedRoomOnTopOfIntMaxTokensSaturates() {
        let builder = ChatRequestBuilder(
            modelName: nil, toolCalling: .constrained, sendsServerExtensions: true, extraBody: JSONObject())
        let request = GenerationRequest(
            transcript: sampleTranscript(), tools: sampleTranscript().instructions!.toolDefinitions,
            options: GenerationOptions(maximumResponseTokens: .max))
        for room in [ChatRequestBuilder.constrainedOverhead, ChatRequestBuilder.constrainedRetryRoom] {
            #expect(builder.body(for: request, stream: true, constrainedRoom: room)["max_tokens"]?.intValue == Int.max)
        }
    }

    @Test(arguments: [false, true])
    func intMaxTokensThroughASessionOnAServerIsARequestNotACrash(streaming: Bool) async throws {
        let reply = #"{"reply":"Fine."}"#
        let server = try LoopbackHTTPServer { request in
            request.path.hasSuffix("/chat/completions")
                ? (streaming
                    ? .eventStream(ServerTest.stream([reply])) : .json(ServerTest.completion(reply)))
                : .text("", status: 404)
        }
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", apiKey: nil, toolCalling: .constrained)
        configuration.maximumRetries = 0
        let session = LanguageModelSession(
            model: try OpenAICompatibleLanguageModel(configuration: configuration), tools: [StockTool()],
            instructions: "x")
        let options = GenerationOptions(maximumResponseTokens: .max)
        // The server reports no context size, so the request goes out, asking for Int.max tokens.
        let answer =
            streaming
            ? try await session.streamResponse(to: "hi", options: options).collect().content
            : try await session.respond(to: "hi", options: options).content
        #expect(answer == "Fine.")
        let body = try JSONValue(parsing: Array(try #require(ServerTest.chatRequests(server).first).body))
        #expect(body["max_tokens"]?.intValue == Int.max)
    }

    @Test func hostileUsageCountsDoNotOverflowWhenAdded() async throws {
        let huge = Int.max
        let count = LoopbackCounter()
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("", status: 404) }
            let usage =
                #""usage":{"prompt_tokens":\#(huge),"completion_tokens":\#(huge)},"timings":{"prompt_n":\#(huge),"cache_n":\#(huge)}"#
            return count.next() == 1
                ? .json(
                    #"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"lookUpStock","arguments":"{\"item\":\"rope\"}"}}]},"finish_reason":"tool_calls"}],\#(usage)}"#
                )
                : .json(#"{"choices":[{"message":{"content":"Three gold."},"finish_reason":"stop"}],\#(usage)}"#)
        }
        let session = LanguageModelSession(model: try ServerTest.model(server), tools: [StockTool()])
        let response = try await session.respond(to: "Rope?")
        #expect(response.content == "Three gold.")
        #expect(ServerTest.chatRequests(server).count == 2, "two steps, whose counts are added")
        #expect(response.generationUsage?.promptTokens == .max)
        #expect(response.generationUsage?.completionTokens == .max)
        let timings: JSONValue = ["timings": ["prompt_n": .integer(Int.max), "cache_n": 5]]
        #expect(ChatResponseParser.usage(from: timings)?.promptTokens == Int.max)
    }

    /// Counts beyond `Int` saturate (docs/model-servers.md, "Reply size"), a negative count is 0: never a trap, and
    /// never a count that vanished (`1e300` prompt tokens is not "no usage").
    @Test(arguments: [
        ("9223372036854775807", Int.max), ("9223372036854775808", Int.max), ("1e300", Int.max), ("1e400", Int.max),
        ("-5", 0), ("-1e300", 0), ("12.7", 12),
    ])
    func usageCountsBeyondIntSaturate(_ number: String, _ expected: Int) throws {
        let value = try JSONValue(
            parsing: Array(#"{"usage":{"prompt_tokens":\#(number),"completion_tokens":\#(number)}}"#.utf8))
        let usage = try #require(ChatResponseParser.usage(from: value))
        #expect(usage.promptTokens == expected)
        #expect(usage.completionTokens == expected)
    }

    /// A context window the server reports: too small for any conversation is refused when connecting, with the
    /// number and what to do; beyond `Int` saturates; llama-server's `/props` and vLLM's `max_model_len` alike.
    @Test(
        arguments: [
            ("0", nil), ("-5", nil), ("1", nil), ("255", nil), ("256", 256), ("9223372036854775807", Int.max),
            ("1e300", Int.max),
        ] as [(String, Int?)])
    func aReportedContextWindowIsCheckedWhenConnecting(_ number: String, _ expected: Int?) async throws {
        for kind in ["llama-server", "vLLM"] {
            let server = try LoopbackHTTPServer { request in
                switch (kind, request.path) {
                case ("llama-server", "/props"):
                    .json(#"{"default_generation_settings":{"n_ctx":\#(number)},"total_slots":9223372036854775807}"#)
                case ("vLLM", "/v1/models"): .json(#"{"data":[{"id":"m","max_model_len":\#(number)}]}"#)
                default: .text("?", status: 404)
                }
            }
            defer { server.stop() }
            let configuration = OpenAICompatibleLanguageModel.Configuration(
                baseURL: server.baseURL + "/v1", model: "m", apiKey: nil, toolCalling: .native)
            if let expected {
                let model = try await OpenAICompatibleLanguageModel.connect(configuration)
                #expect(try await model.contextSize == expected, "\(kind)")
                if kind == "llama-server" {
                    #expect(try await model.serverInfo().slotCount == OpenAICompatibleLanguageModel.maximumSlotCount)
                }
            } else {
                let error = await #expect(throws: ModelServerError.self, "\(kind)") {
                    try await OpenAICompatibleLanguageModel.connect(configuration)
                }
                #expect(error == .contextTooSmall, "\(kind)")
                #expect(error?.description.contains("context window of \(number) tokens") == true, "\(kind)")
            }
        }
    }
}
