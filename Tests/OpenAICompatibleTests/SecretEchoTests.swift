import Foundation
import HTTPTestSupport
import LanguageModels
import ParleyJSON
import Testing

@testable import OpenAICompatible

/// A server that echoes the `Authorization` header (in an error body, an error event, a web page, even in what the
/// model says) does not get the API key into an error or an answer.
@Suite(.timeLimit(.minutes(10))) struct SecretEchoTests {
    static func secret() -> String { "sk-echo-\(UUID().uuidString)" }

    /// The request's `Authorization` header as a server would quote it.
    static func echo(_ request: LoopbackRequest) -> String { request.header("Authorization") ?? "" }

    /// Runs a turn and returns its error, or the answer.
    func turn(_ session: LanguageModelSession, streaming: Bool) async -> Result<String, any Error> {
        do {
            if streaming { return .success(try await session.streamResponse(to: "hi").collect().content) }
            return .success(try await session.respond(to: "hi").content)
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [401, 403, 500, 429, 400], [false, true])
    func anErrorBodyEchoingTheKeyIsRedacted(status: Int, streaming: Bool) async throws {
        let key = Self.secret()
        let server = try LoopbackHTTPServer { request in
            .json(#"{"error":{"message":"rejected \#(Self.echo(request)) (key \#(key))"}}"#, status: status)
        }
        let session = LanguageModelSession(model: try ServerTest.model(server, apiKey: key), instructions: "x")
        let result = await turn(session, streaming: streaming)
        guard case .failure(let error) = result else {
            Issue.record("no error")
            return
        }
        #expect(!"\(error)".contains(key), "\(error)")
        #expect("\(error)".contains("<redacted>"), "\(error)")
        #expect(ServerTest.chatRequests(server).first?.header("Authorization") == "Bearer \(key)")
    }

    @Test func aWebPageEchoingTheKeyIsRedacted() async throws {
        let key = Self.secret()
        let server = try LoopbackHTTPServer { request in
            .respond(
                status: 200, headers: [("Content-Type", "text/html")],
                body: Data("<html><head><title>Proxy: \(Self.echo(request))</title></head></html>".utf8))
        }
        let session = LanguageModelSession(model: try ServerTest.model(server, apiKey: key), instructions: "x")
        for streaming in [false, true] {
            guard case .failure(let error) = await turn(session, streaming: streaming) else {
                Issue.record("no error")
                return
            }
            #expect(!"\(error)".contains(key), "\(error)")
        }
    }

    @Test func anErrorEventInTheMiddleOfAStreamEchoingTheKeyIsRedacted() async throws {
        let key = Self.secret()
        let server = try LoopbackHTTPServer { request in
            .eventStream(
                [ServerTest.chunk(["content": "Well"])]
                    + [#"data: {"error":{"message":"upstream refused \#(Self.echo(request))"}}"# + "\n\n"])
        }
        let session = LanguageModelSession(model: try ServerTest.model(server, apiKey: key), instructions: "x")
        guard case .failure(let error) = await turn(session, streaming: true) else {
            Issue.record("no error")
            return
        }
        #expect(error as? ModelServerError == .invalidResponse)
        #expect("\(error)".contains("mid-stream"))
        #expect(!"\(error)".contains(key), "\(error)")
    }

    /// The key split across events, as a model or a proxy might send it back.
    @Test(arguments: [1, 3, 7, 20])
    func theKeyInWhatTheModelSaysIsRedactedAcrossChunks(pieceLength: Int) async throws {
        let key = Self.secret()
        let said = "Your key is \(key), keep it safe."
        var pieces: [String] = []
        var rest = Substring(said)
        while !rest.isEmpty {
            pieces.append(String(rest.prefix(pieceLength)))
            rest = rest.dropFirst(pieceLength)
        }
        let server = try LoopbackHTTPServer(.eventStream(ServerTest.stream(pieces)))
        let session = LanguageModelSession(model: try ServerTest.model(server, apiKey: key), instructions: "x")
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "hi") { snapshots.append(snapshot.content) }
        #expect(snapshots.last == "Your key is <redacted>, keep it safe.")
        #expect(!snapshots.contains { $0.contains(key) })
        #expect(!session.transcript.map(\.description).joined().contains(key))
    }

    @Test func theKeyInAWholeAnswerAndInToolArgumentsIsRedacted() async throws {
        let key = Self.secret()
        let count = LoopbackCounter()
        let server = try LoopbackHTTPServer { request in
            let arguments = #"{"item":"\#(Self.echo(request))"}"#
            let call: JSONValue = [
                "choices": [
                    [
                        "message": [
                            "content": .null,
                            "tool_calls": [
                                [
                                    "id": "c1", "type": "function",
                                    "function": ["name": "lookUpStock", "arguments": .string(arguments)],
                                ]
                            ],
                        ],
                        "finish_reason": "tool_calls",
                    ]
                ]
            ]
            return .json(count.next() == 1 ? call.jsonString() : ServerTest.completion("It was \(key)."))
        }
        let session = LanguageModelSession(
            model: try ServerTest.model(server, apiKey: key), tools: [StockTool()], instructions: "x")
        let answer = try await session.respond(to: "hi").content
        #expect(answer == "It was <redacted>.")
        #expect(!session.transcript.map(\.description).joined().contains(key))
    }

    /// `OPENAI_API_KEY=gold`: a key too short to be a secret is a word, and what the model says keeps it; a key that
    /// is a secret is redacted as a whole token only, in a whole answer and across streamed chunks alike.
    @Test(arguments: [1, 2, 5, 40])
    func aShortKeyIsAWordAndALongOneIsRedactedOnlyAsAWholeToken(pieceLength: Int) async throws {
        for (key, said, expected) in [
            ("gold", "That is 8 gold, friend.", "That is 8 gold, friend."),
            ("goldcoin", "That is 8 goldcoins or 8 goldcoin.", "That is 8 goldcoins or 8 <redacted>."),
        ] {
            var pieces: [String] = []
            var rest = Substring(said)
            while !rest.isEmpty {
                pieces.append(String(rest.prefix(pieceLength)))
                rest = rest.dropFirst(pieceLength)
            }
            let streamed = try LoopbackHTTPServer(.eventStream(ServerTest.stream(pieces)))
            defer { streamed.stop() }
            let session = LanguageModelSession(
                model: try ServerTest.model(streamed, apiKey: key), instructions: "x")
            #expect(try await session.streamResponse(to: "hi").collect().content == expected, "\(key)")
            let whole = try LoopbackHTTPServer(.json(ServerTest.completion(said)))
            defer { whole.stop() }
            let answer = try await LanguageModelSession(
                model: try ServerTest.model(whole, apiKey: key), instructions: "x"
            ).respond(to: "hi").content
            #expect(answer == expected, "\(key)")
            #expect(OpenAICompatibleLanguageModel.redactingSecrets(in: said, apiKey: key) == expected)
        }
    }
}
