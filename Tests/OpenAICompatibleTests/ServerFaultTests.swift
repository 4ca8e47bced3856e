import Foundation
import HTTPTestSupport
import LanguageModels
import LanguageModelsTesting
import ParleyJSON
import Synchronization
import Testing

@testable import OpenAICompatible

/// The backend against a loopback server the tests control: every failure a real server can have.
@Suite struct ServerFaultTests {
    func model(
        _ server: LoopbackHTTPServer, retries: Int = 2, apiKey: String? = nil, idle: Duration = .seconds(5)
    ) throws
        -> OpenAICompatibleLanguageModel
    {
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", apiKey: apiKey, contextSize: 4096, toolCalling: .native)
        configuration.maximumRetries = retries
        configuration.retryDelay = .milliseconds(10)
        configuration.idleTimeout = idle
        return try OpenAICompatibleLanguageModel(configuration: configuration)
    }

    func chatRequests(_ server: LoopbackHTTPServer) -> [LoopbackRequest] {
        server.requests.filter { $0.path.hasSuffix("/chat/completions") }
    }

    static func chunk(_ content: String) -> String {
        let delta: JSONValue = ["content": .string(content)]
        let chunk: JSONValue = ["choices": [["index": 0, "delta": delta]]]
        return "data: " + chunk.jsonString() + "\n\n"
    }

    static let tokens = ["Fine", " steel", ",", " fair", " prices", "."]
    static let completeStream =
        tokens.map(chunk) + [
            #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\n", "data: [DONE]\n\n",
        ]

    @Test func aConnectionRefusedErrorNamesTheURLAndSaysHowToStartAServer() async throws {
        let server = try LoopbackHTTPServer(.text("unused"))
        let url = server.baseURL
        server.stop()
        let session = LanguageModelSession(model: try model(server), instructions: "x")
        do {
            try await session.respond(to: "hello")
            Issue.record("no error")
        } catch let error as ModelServerError {
            #expect(error == .unreachable)
            #expect(error.description.contains(url + "/v1"))
            #expect(error.description.contains("scripts/llm-server start"))
        }
        #expect(session.transcript.count == 1)
    }

    @Test func serverErrorsAreRetriedWithBackoff() async throws {
        let attempts = Mutex(0)
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("", status: 404) }
            let attempt = attempts.withLock {
                $0 += 1; return $0
            }
            return attempt < 3
                ? .json(#"{"error":{"message":"loading model"}}"#, status: 503)
                : .json(#"{"choices":[{"message":{"content":"Back again."},"finish_reason":"stop"}]}"#)
        }
        defer { server.stop() }
        let session = LanguageModelSession(model: try model(server))
        #expect(try await session.respond(to: "hi").content == "Back again.")
        #expect(attempts.withLock { $0 } == 3)
    }

    @Test func aServerThatKeepsFailingGivesAClearErrorAfterTheRetries() async throws {
        let server = try LoopbackHTTPServer(.json(#"{"error":{"message":"out of memory"}}"#, status: 500))
        defer { server.stop() }
        let session = LanguageModelSession(model: try model(server, retries: 2))
        do {
            try await session.respond(to: "hi")
            Issue.record("no error")
        } catch let error as ModelServerError {
            #expect(error == .serverError)
            #expect(error.status == 500)
            #expect(error.description.contains("out of memory"))
        }
        #expect(chatRequests(server).count == 3)
        #expect(session.transcript.isEmpty)
    }

    @Test func resetsAreRetried() async throws {
        let attempts = Mutex(0)
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("", status: 404) }
            return attempts.withLock {
                $0 += 1; return $0
            } == 1
                ? .reset : .json(#"{"choices":[{"message":{"content":"ok"}}]}"#)
        }
        defer { server.stop() }
        #expect(try await LanguageModelSession(model: try model(server)).respond(to: "hi").content == "ok")
    }

    @Test func contextOverflowBecomesContextSizeExceeded() async throws {
        let server = try LoopbackHTTPServer(.json(Recorded.llamaContextError, status: 400))
        defer { server.stop() }
        let session = LanguageModelSession(model: try model(server))
        do {
            try await session.respond(to: "hi")
            Issue.record("no error")
        } catch LanguageModelError.contextSizeExceeded(let info) {
            #expect(info.contextSize == 512)
            #expect(info.tokenCount == 731)
        }
        #expect(chatRequests(server).count == 1)  // not retried
    }

    @Test func rateLimitingBecomesRateLimitedWithTheResetTime() async throws {
        let server = try LoopbackHTTPServer(
            .respond(
                status: 429, headers: [("Retry-After", "20")], body: Data(#"{"error":{"message":"slow down"}}"#.utf8)))
        defer { server.stop() }
        let before = Date()
        do {
            // Without retries: with them, the backend waits the twenty seconds out and asks again.
            try await LanguageModelSession(model: try model(server, retries: 0)).respond(to: "hi")
            Issue.record("no error")
        } catch LanguageModelError.rateLimited(let info) {
            let reset = try #require(info.resetDate)
            // Twenty seconds after the answer arrived: between then and now, whatever the machine's load.
            #expect(reset >= before.addingTimeInterval(19))
            #expect(reset <= Date().addingTimeInterval(21))
            #expect(info.debugDescription.contains("slow down"))
        }
    }

    @Test(arguments: [
        LoopbackResponse.json("<html>Bad gateway</html>"),
        .json(#"{"choices":[]}"#),
        .garbage(Data("HTTP/9 banana\r\n\r\n".utf8)),
    ])
    func bodiesThatAreNotWhatWasAskedAreErrorsNotCrashes(_ response: LoopbackResponse) async throws {
        let server = try LoopbackHTTPServer(response)
        defer { server.stop() }
        let session = LanguageModelSession(model: try model(server, retries: 0), instructions: "x")
        await #expect(throws: ModelServerError.self) { try await session.respond(to: "hi") }
        #expect(session.transcript.count == 1)
    }

    @Test func aStreamCutMidTokenIsAnErrorAndLeavesNoHalfEntry() async throws {
        let cut =
            Array(Self.completeStream.prefix(3)) + ["data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"pri"]
        let server = try LoopbackHTTPServer(.eventStream(cut, ending: .cut))
        defer { server.stop() }
        let session = LanguageModelSession(model: try model(server), instructions: "x")
        let before = session.transcript
        var seen = ""
        do {
            for try await snapshot in session.streamResponse(to: "Talk") { seen = snapshot.content }
            Issue.record("no error")
        } catch let error as ModelServerError {
            #expect(error == .streamInterrupted)
        }
        #expect(seen == "Fine steel,")
        #expect(session.transcript == before)
        #expect(!session.isResponding)
    }

    @Test func aStreamThatEndsWithoutDoneIsInterrupted() async throws {
        let server = try LoopbackHTTPServer(.eventStream(Array(Self.completeStream.prefix(2))))
        defer { server.stop() }
        let session = LanguageModelSession(model: try model(server))
        await #expect(throws: ModelServerError.streamInterrupted) {
            try await session.streamResponse(to: "Talk").collect()
        }
        #expect(session.transcript.isEmpty)
    }

    @Test func aHangingServerTimesOut() async throws {
        let server = try LoopbackHTTPServer(.hang)
        defer { server.stop() }
        let session = LanguageModelSession(model: try model(server, retries: 0, idle: .milliseconds(300)))
        await #expect {
            try await session.streamResponse(to: "hi").collect()
        } throws: { error in
            if case LanguageModelError.timeout = error { return true }
            return false
        }
        #expect(session.transcript.isEmpty)
    }

    @Test func theAPIKeyIsSentButNeverShown() async throws {
        let secret = "sk-test-\(UUID().uuidString)"
        let server = try LoopbackHTTPServer(.json(#"{"error":{"message":"bad key"}}"#, status: 401))
        defer { server.stop() }
        let backend = try model(server, apiKey: secret)
        do {
            try await LanguageModelSession(model: backend).respond(to: "hi")
            Issue.record("no error")
        } catch {
            #expect(!"\(error)".contains(secret))
            #expect("\(error)".contains("OPENAI_API_KEY"))
        }
        #expect(chatRequests(server).first?.header("Authorization") == "Bearer \(secret)")
        #expect(!"\(backend.configuration)".contains(secret))
        var dumped = ""
        dump(backend.configuration, to: &dumped)
        #expect(!dumped.contains(secret))
    }

    /// A session on this backend behaves like one on the mock: same transcript shapes for the same replies.
    @Test func transcriptsHaveTheSameShapesAsWithTheMock() async throws {
        let replies = [
            #"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"lookUpStock","arguments":"{\"item\":\"rope\"}"}}]},"finish_reason":"tool_calls"}]}"#,
            #"{"choices":[{"message":{"content":"Rope is 3 gold."},"finish_reason":"stop"}]}"#,
        ]
        let count = Mutex(0)
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("", status: 404) }
            return .json(
                replies[
                    count.withLock {
                        $0 += 1; return $0 - 1
                    } % 2])
        }
        defer { server.stop() }
        let tool = StockTool()
        let served = LanguageModelSession(model: try model(server), tools: [tool], instructions: "Merchant.")
        let mocked = LanguageModelSession(
            model: MockLanguageModel(replies: [
                .toolCall("lookUpStock", arguments: #"{"item":"rope"}"#), .text("Rope is 3 gold."),
            ]),
            tools: [tool], instructions: "Merchant.")
        let a = try await served.respond(to: "Rope?")
        let b = try await mocked.respond(to: "Rope?")
        #expect(a.content == b.content)
        #expect(served.transcript.map(\.description) == mocked.transcript.map(\.description))
        // The second request sent the tool call and its output back.
        let second = try JSONValue(parsing: Array(chatRequests(server)[1].body))
        #expect(second["messages"]?[2]?["tool_calls"]?[0]?["id"] == "c1")
        #expect(second["messages"]?[3] == ["role": "tool", "tool_call_id": "c1", "content": "rope: 3 gold"])
    }

    @Test func contextSizeAndToolSupportAreReadFromTheServer() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path == "/props"
                ? .json(Recorded.props) : .json(#"{"choices":[{"message":{"content":"{\"reply\":\"Hi!\"}"}}]}"#)
        }
        defer { server.stop() }
        let model = try await OpenAICompatibleLanguageModel.connect(.init(baseURL: server.baseURL + "/v1", apiKey: nil))
        #expect(try await model.contextSize == 1024)
        #expect(model.id == "SmolLM2-135M-Instruct")
        #expect(model.version == "SmolLM2-135M-Instruct.gguf llama.cpp b6543-abc")
        let session = LanguageModelSession(model: model, tools: [StockTool()], instructions: "Merchant.")
        #expect(try await session.respond(to: "hi").content == "Hi!")
        // Constrained tool calling: no tools parameter, a response format instead.
        let body = try JSONValue(parsing: Array(try #require(chatRequests(server).last).body))
        #expect(body["tools"] == nil)
        #expect(body["response_format"]?["json_schema"]?["name"] == "tool_call_or_reply")
    }
}

/// A tool for these tests.
struct StockTool: Tool {
    let name = "lookUpStock"
    let description = "Looks up an item's price."
    struct Arguments: CodableGenerable {
        var item: String
        static var generationSchema: GenerationSchema {
            GenerationSchema(type: Arguments.self, properties: [.init(name: "item", type: String.self)])
        }
    }
    func call(arguments: Arguments) async throws -> String { "\(arguments.item): 3 gold" }
}

extension ServerFaultTests {
    /// A small model in constrained tool calling can run out of `max_tokens` in the middle of a tool call (padding
    /// its JSON with newlines, or a runaway argument): the backend asks once more with more room, unseen.
    @Test(arguments: [false, true])
    func aToolCallCutOffByTheTokenLimitIsAskedForAgainWithMoreRoom(streaming: Bool) async throws {
        // JSON-escaped, as they go inside the response's content string.
        let cut = #"{\n\n\"tool\"\n\n:\n\n\"lookUpStock\",\"arguments\"\n\n:\n\n{\n \"item\"\n\n:\n\n\"ro"#
        let whole = #"{\"tool\":\"lookUpStock\",\"arguments\":{\"item\":\"rope\"}}"#
        let reply = #"{\"reply\":\"Three gold.\"}"#
        let attempts = Mutex(0)
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("", status: 404) }
            let attempt = attempts.withLock {
                $0 += 1
                return $0
            }
            let (content, reason) = attempt == 1 ? (cut, "length") : (attempt == 2 ? whole : reply, "stop")
            if streaming {
                return .eventStream([
                    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\(content)\"}}]}\n\n",
                    "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"\(reason)\"}]}\n\n",
                    "data: [DONE]\n\n",
                ])
            }
            return .json(#"{"choices":[{"message":{"content":"\#(content)"},"finish_reason":"\#(reason)"}]}"#)
        }
        defer { server.stop() }
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", apiKey: nil, contextSize: 4096, toolCalling: .constrained)
        configuration.retryDelay = .milliseconds(10)
        let session = LanguageModelSession(
            model: try OpenAICompatibleLanguageModel(configuration: configuration), tools: [StockTool()])
        let options = GenerationOptions(maximumResponseTokens: 8)
        let answer =
            streaming
            ? try await session.streamResponse(to: "Rope?", options: options).collect().content
            : try await session.respond(to: "Rope?", options: options).content
        #expect(answer == "Three gold.")
        let output = session.transcript.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
        #expect(output.map { $0.segments.map(\.description).joined() } == ["rope: 3 gold"])
        let limits = chatRequests(server).map { try? JSONValue(parsing: $0.bodyText)["max_tokens"]?.intValue }
        #expect(limits == [8 + 48, 8 + 256, 8 + 48])
    }
}
