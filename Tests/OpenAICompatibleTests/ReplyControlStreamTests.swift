import Foundation
import HTTPTestSupport
import LanguageModels
import ParleyJSON
import Synchronization
import Testing

@testable import OpenAICompatible

/// A small model that loops ("I'm so glad you're here. I'm so glad you're here. …") or rambles against a loopback
/// server: the turn ends normally with the kept text, the stream shows nothing that is cut, the transcript holds
/// exactly the kept text, and the backend closes the connection instead of reading on.
@Suite(.timeLimit(.minutes(10))) struct ReplyControlStreamTests {
    /// A text reply that would stream `start`, then `pieces` over and over for half a minute or more, and then hang.
    static func endless(_ pieces: [String], after start: [String] = []) -> LoopbackResponse {
        let chunks = (start + (0..<2_000).flatMap { _ in pieces }).map { ServerTest.chunk(["content": .string($0)]) }
        return .eventStream(chunks, interval: .milliseconds(5), ending: .hang)
    }

    /// The text of the session's response entry.
    static func responseText(_ session: LanguageModelSession) -> String? {
        guard case .response(let response)? = session.transcript.last else { return nil }
        return response.segments.map(\.description).joined()
    }

    /// Streams a turn; returns every snapshot's text and the final content.
    static func stream(
        _ session: LanguageModelSession, _ prompt: String = "Hello!"
    ) async throws -> (snapshots: [String], content: String) {
        let stream = session.streamResponse(to: prompt)
        var snapshots: [String] = []
        for try await snapshot in stream { snapshots.append(snapshot.content) }
        return (snapshots, try await stream.collect().content)
    }

    @Test func aLoopingStreamEndsWithTheTextBeforeTheLoopAndIsClosed() async throws {
        let fake = try FakeModelServer(.generic, chat: Self.endless(["I'm so", " glad you", "'re here.", " "]))
        let session = LanguageModelSession(model: try fake.model(), instructions: "You are Mira.")
        // An endless stream that is never cut would never return: the suite's time limit fails the test then, and no
        // wall-clock figure is asserted (a busy machine is slow, not wrong).
        let (snapshots, content) = try await Self.stream(session)
        #expect(content == "I'm so glad you're here.")
        #expect(Self.responseText(session) == "I'm so glad you're here.")
        #expect(session.transcript.count == 3)
        #expect(!snapshots.isEmpty)
        #expect(snapshots.allSatisfy { content.hasPrefix($0) }, "\(snapshots)")
        #expect(await fake.server.wait(timeout: .seconds(120)) { $0.connectionsOpen == 0 })
    }

    @Test func aWordLoopWithinTheFirstSentenceIsCut() async throws {
        let fake = try FakeModelServer(
            .generic, chat: Self.endless([" to my", " shop"], after: ["Welcome,", " welcome"]))
        let session = LanguageModelSession(model: try fake.model(), instructions: "You are Mira.")
        let (snapshots, content) = try await Self.stream(session)
        #expect(content == "Welcome, welcome to my shop")
        #expect(Self.responseText(session) == content)
        #expect(snapshots.allSatisfy { content.hasPrefix($0) }, "\(snapshots)")
        #expect(await fake.server.wait(timeout: .seconds(120)) { $0.connectionsOpen == 0 })
    }

    @Test func theSentenceBudgetEndsTheStream() async throws {
        let pieces = ["The rope", " is three", " gold. The", " lantern is", " five. Bread", " costs one", ". "]
        let fake = try FakeModelServer(.generic, chat: Self.endless(pieces))
        let model = try fake.model().replying(inAtMost: 2)
        let session = LanguageModelSession(model: model, instructions: "You are Mira.")
        let (snapshots, content) = try await Self.stream(session)
        #expect(content == "The rope is three gold. The lantern is five.")
        #expect(Self.responseText(session) == content)
        #expect(snapshots.allSatisfy { content.hasPrefix($0) }, "\(snapshots)")
        #expect(try fake.lastBody()["max_tokens"] == 80)
        #expect(await fake.server.wait(timeout: .seconds(120)) { $0.connectionsOpen == 0 })
    }

    @Test func aLoopingWholeAnswerIsCutToo() async throws {
        let fake = try FakeModelServer(
            .generic, chat: .json(ServerTest.completion("Hello there! Hello there! Hello there! Hello")))
        let session = LanguageModelSession(model: try fake.model(), instructions: "You are Mira.")
        #expect(try await session.respond(to: "Hi").content == "Hello there!")
        #expect(Self.responseText(session) == "Hello there!")
        // A whole answer to a streaming request, likewise.
        let streamed = try await Self.stream(session)
        #expect(streamed.content == "Hello there!")
        #expect(Self.responseText(session) == "Hello there!")
    }

    @Test func withLoopCuttingOffTheReplyIsKeptWhole() async throws {
        let looping = "Hello there! Hello there! Hello there!"
        let fake = try FakeModelServer(
            .generic, chat: .eventStream(ServerTest.stream(["Hello there!", " Hello", " there! Hello there!"])))
        let session = LanguageModelSession(model: try fake.model { $0.cutsLoops = false }, instructions: "x")
        #expect(try await Self.stream(session).content == looping)
    }

    @Test(arguments: [false, true])
    func aConstrainedReplyThatLoopsIsCut(streaming: Bool) async throws {
        // llama-server whose model has no tool calling: tools go through constrained output, {"reply": "..."}.
        let reply = #"{"reply": "Twelve gold. Twelve gold. Twelve gold. Twelve"#
        let chat: LoopbackResponse =
            streaming
            ? .eventStream(
                [ServerTest.chunk(["content": #"{"reply": ""#])]
                    + (0..<2_000).flatMap { _ in
                        [ServerTest.chunk(["content": "Twelve"]), ServerTest.chunk(["content": " gold. "])]
                    },
                interval: .milliseconds(5), ending: .hang)
            : .json(ServerTest.completion(reply))
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/props": .json(Recorded.props)
            case "/v1/chat/completions": chat
            default: .text("not found", status: 404)
            }
        }
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", apiKey: nil, contextSize: 1 << 20)
        configuration.maximumRetries = 0
        let session = LanguageModelSession(
            model: try OpenAICompatibleLanguageModel(configuration: configuration), tools: [StockTool()],
            instructions: "You are Mira.")
        let content =
            streaming ? try await Self.stream(session).content : try await session.respond(to: "Price?").content
        #expect(content == "Twelve gold.")
        #expect(Self.responseText(session) == "Twelve gold.")
        let body = try JSONValue(parsing: Array(try #require(ServerTest.chatRequests(server).last).body))
        #expect(body["response_format"]?["json_schema"]?["name"] == "tool_call_or_reply")
        #expect(body["stop"] == nil)
        if streaming { #expect(await server.wait(timeout: .seconds(120)) { $0.connectionsOpen == 0 }) }
    }

    @Test func withNativeToolsTheStreamIsReadOnSoAToolCallAfterTheTextIsNotLost() async throws {
        let calls = Mutex(0)
        let toolCall = ServerTest.chunk([
            "tool_calls": [
                [
                    "index": 0, "id": "c1", "type": "function",
                    "function": ["name": "lookUpStock", "arguments": #"{"item":"rope"}"#],
                ]
            ]
        ])
        let server = try LoopbackHTTPServer { request in
            guard request.path == "/v1/chat/completions" else { return .text("not found", status: 404) }
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            return call == 1
                ? .eventStream(
                    [
                        ServerTest.chunk(["content": "Let me check."]), ServerTest.chunk(["content": " One moment."]),
                        toolCall, ServerTest.chunk([:], finish: "tool_calls"), "data: [DONE]\n\n",
                    ])
                : .eventStream(ServerTest.stream(["Rope is", " 3 gold.", " Anything else?"]))
        }
        let model = try ServerTest.model(server).replying(inAtMost: 1)
        let session = LanguageModelSession(model: model, tools: [StockTool()], instructions: "You are Mira.")
        let (_, content) = try await Self.stream(session, "Rope?")
        #expect(content == "Rope is 3 gold.")
        #expect(session.transcript.contains { if case .toolCalls = $0 { true } else { false } })
        #expect(calls.withLock { $0 } == 2)
    }

    @Test(arguments: [false, true])
    func guidedGenerationIsNeverCut(streaming: Bool) async throws {
        let json = #"{"line":"Hi. Hi. Hi. Hi. Hi. Hi."}"#
        let fake = try FakeModelServer(
            .generic,
            chat: streaming
                ? .eventStream(ServerTest.stream([#"{"line":"Hi."#, #" Hi. Hi."#, #" Hi. Hi. Hi."}"#]))
                : .json(ServerTest.completion(json)))
        let schema = try GenerationSchema(jsonSchema: [
            "type": "object", "title": "Line", "properties": ["line": ["type": "string"]], "required": ["line"],
        ])
        let session = LanguageModelSession(model: try fake.model { $0.maximumSentences = 1 }, instructions: "x")
        let content: GeneratedContent
        if streaming {
            let stream = session.streamResponse(to: "Greet.", schema: schema)
            content = try await stream.collect().content
        } else {
            content = try await session.respond(to: "Greet.", schema: schema).content
        }
        #expect(content.jsonString == json)
    }
}
