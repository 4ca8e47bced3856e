import Foundation
import HTTPTestSupport
import LanguageModels
import Testing

@testable import OpenAICompatible

/// `availability` as Apple's `SystemLanguageModel` has it, learnt from a real (loopback) server.
@Suite struct AvailabilityTests {
    /// A backend for `server` asking for `model`, with a short probe.
    static func model(
        _ server: LoopbackHTTPServer, named model: String? = "smol", timeout: Duration = .seconds(20)
    ) throws -> OpenAICompatibleLanguageModel {
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", model: model, apiKey: nil, toolCalling: .native)
        configuration.availabilityTimeout = timeout
        configuration.maximumRetries = 0
        return try OpenAICompatibleLanguageModel(configuration: configuration)
    }

    static let modelList = #"{"object":"list","data":[{"id":"smol","object":"model"},{"id":"llama3:latest"}]}"#

    /// What a server answers to `/v1/models` (and `/health`), and the availability that means.
    static let answers:
        [(name: String, models: LoopbackResponse, health: LoopbackResponse, expected: LanguageModelAvailability)] = [
            ("listed", .json(modelList), .text("unused"), .available),
            ("not listed", .json(#"{"data":[{"id":"other"}]}"#), .text("unused"), .unavailable(.modelMissing)),
            ("empty list", .json(#"{"data":[]}"#), .text("unused"), .unavailable(.modelMissing)),
            (
                "loading", .json(#"{"error":{"message":"Loading model"}}"#, status: 503), .text("unused"),
                .unavailable(.modelNotReady)
            ),
            ("bad key", .json(#"{"error":"no"}"#, status: 401), .text("unused"), .unavailable(.unauthorized)),
            ("forbidden", .text("no", status: 403), .text("unused"), .unavailable(.unauthorized)),
            ("broken", .text("oops", status: 500), .text("unused"), .unavailable(.serverUnreachable)),
            (
                "web page",
                .respond(status: 200, headers: [("Content-Type", "text/html")], body: Data("<html></html>".utf8)),
                .text("unused"), .unavailable(.unsupported)
            ),
            ("JSON without a list", .json(#"{"models":[]}"#), .text("unused"), .unavailable(.unsupported)),
            ("no /models, healthy", .text("not found", status: 404), .json(#"{"status":"ok"}"#), .available),
            (
                "no /models, loading", .text("not found", status: 404), .text("loading", status: 503),
                .unavailable(.modelNotReady)
            ),
            (
                "no /models, no /health", .text("not found", status: 404), .text("not found", status: 404),
                .unavailable(.unsupported)
            ),
            ("redirect", .text("moved", status: 302), .text("unused"), .unavailable(.unsupported)),
        ]

    @Test(arguments: 0..<answers.count)
    func aProbeReadsTheServersAnswer(_ index: Int) async throws {
        let answer = Self.answers[index]
        let server = try LoopbackHTTPServer { request in
            request.path == "/v1/models"
                ? answer.models : request.path == "/health" ? answer.health : .text("?", status: 404)
        }
        defer { server.stop() }
        let model = try Self.model(server)
        let found = await model.refreshAvailability()
        #expect(found == answer.expected, "\(answer.name)")
        #expect(model.availability == answer.expected, "\(answer.name): kept for the synchronous property")
        #expect(model.isAvailable == (answer.expected == .available))
    }

    @Test func aServerThatIsDownIsUnreachable() async throws {
        let server = try LoopbackHTTPServer(.json(Self.modelList))
        let model = try Self.model(server)
        #expect(await model.refreshAvailability() == .available)
        server.stop()
        #expect(await model.refreshAvailability() == .unavailable(.serverUnreachable))
        #expect(model.availability == .unavailable(.serverUnreachable))
    }

    @Test func aServerThatNeverAnswersIsUnreachableAfterTheTimeout() async throws {
        let server = try LoopbackHTTPServer(.hang)
        defer { server.stop() }
        let model = try Self.model(server, timeout: .milliseconds(300))
        #expect(await model.refreshAvailability() == .unavailable(.serverUnreachable))
    }

    @Test func beforeAnyProbeItIsNotReadyAndAProbeStarts() async throws {
        let server = try LoopbackHTTPServer(.json(Self.modelList))
        defer { server.stop() }
        let model = try Self.model(server)
        #expect(model.availability == .unavailable(.modelNotReady))
        // The read started a probe, which keeps what the server says: once it is done, a read knows.
        let probe = try #require(model.backgroundProbe)
        #expect(model.availability == .unavailable(.modelNotReady) || model.availability == .available)
        #expect(await probe.value == .available)
        #expect(model.availability == .available)
        #expect(server.requests.filter { $0.path == "/v1/models" }.count == 1)
    }

    @Test(arguments: [
        ("smol", ["smol"], true), ("llama3", ["llama3:latest"], true), ("llama3:latest", ["llama3"], true),
        ("llama3", ["llama3.2"], false), ("x", [], false),
    ])
    func modelNamesMatchAsOllamaListsThem(_ name: String, _ ids: [String], _ listed: Bool) {
        #expect(OpenAICompatibleLanguageModel.lists(name, in: ids) == listed)
    }

    @Test func requestsTellWhatTheyLearnt() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path.hasSuffix("/chat/completions")
                ? .json(ServerTest.completion("hello")) : .text("?", status: 404)
        }
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", apiKey: nil, contextSize: 4096, toolCalling: .native)
        configuration.maximumRetries = 0
        let model = try OpenAICompatibleLanguageModel(configuration: configuration)
        #expect(model.knownContextSize == 4096)
        let session = LanguageModelSession(model: model)
        try await session.respond(to: "hi")
        #expect(model.availability == .available)
        server.stop()
        await #expect(throws: ModelServerError.self) { try await session.respond(to: "again") }
        #expect(model.availability == .unavailable(.serverUnreachable))
        // A copy for another NPC shares what was learnt.
        #expect(model.replying(inAtMost: 1).availability == .unavailable(.serverUnreachable))
    }

    @Test func connectingLearnsAvailabilityAndTheContextSize() async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/props": .json(#"{"default_generation_settings":{"n_ctx":2048},"total_slots":1}"#)
            default: .text("?", status: 404)
            }
        }
        defer { server.stop() }
        let model = try await OpenAICompatibleLanguageModel.connect(
            .init(baseURL: server.baseURL + "/v1", apiKey: nil, toolCalling: .native))
        #expect(model.availability == .available)
        #expect(model.knownContextSize == 2048)
        #expect(try await model.contextSize == 2048)

        let unknown = try Self.model(server)
        #expect(unknown.knownContextSize == nil)
        _ = try await unknown.serverInfo()
        #expect(unknown.knownContextSize == 2048)
    }

    @Test func connectingToAServerWithoutTheModelSaysSo() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path == "/v1/models" ? .json(#"{"data":[{"id":"other"}]}"#) : .text("?", status: 404)
        }
        defer { server.stop() }
        let model = try await OpenAICompatibleLanguageModel.connect(
            .init(baseURL: server.baseURL + "/v1", model: "smol", apiKey: nil, toolCalling: .native))
        switch model.availability {
        case .available: Issue.record("the model is not on the server")
        case .unavailable(let reason): #expect(reason == .modelMissing)
        }
    }
}
