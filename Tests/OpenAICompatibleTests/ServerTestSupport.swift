import Foundation
import HTTPTestSupport
import LanguageModels
import ParleyJSON
import Synchronization

@testable import OpenAICompatible

/// Backends, streams and notice collection shared by the tests of server answers, sizes, retries and secrets.
enum ServerTest {
    /// A backend for a loopback server: native tools, a known context size, short waits.
    static func model(
        _ server: LoopbackHTTPServer, retries: Int = 0, apiKey: String? = nil, idle: Duration = .seconds(5),
        maximumReplyBytes: Int? = nil
    ) throws -> OpenAICompatibleLanguageModel {
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", apiKey: apiKey, contextSize: 1 << 20, toolCalling: .native)
        configuration.maximumRetries = retries
        configuration.retryDelay = .milliseconds(10)
        configuration.idleTimeout = idle
        if let maximumReplyBytes { configuration.maximumReplyBytes = maximumReplyBytes }
        return try OpenAICompatibleLanguageModel(configuration: configuration)
    }

    /// The requests to `/chat/completions`.
    static func chatRequests(_ server: LoopbackHTTPServer) -> [LoopbackRequest] {
        server.requests.filter { $0.path.hasSuffix("/chat/completions") }
    }

    /// One streamed chunk carrying `delta`.
    static func chunk(_ delta: JSONValue, finish: JSONValue = .null) -> String {
        let value: JSONValue = ["choices": [["index": 0, "delta": delta, "finish_reason": finish]]]
        return "data: " + value.jsonString() + "\n\n"
    }

    /// A streamed text answer in these pieces, with its end.
    static func stream(_ pieces: [String]) -> [String] {
        pieces.map { chunk(["content": .string($0)]) } + [chunk([:], finish: "stop"), "data: [DONE]\n\n"]
    }

    /// A whole chat completion answering `text`.
    static func completion(_ text: String) -> String {
        let value: JSONValue = [
            "choices": [
                ["index": 0, "message": ["role": "assistant", "content": .string(text)], "finish_reason": "stop"]
            ],
            "usage": ["prompt_tokens": 5, "completion_tokens": 3],
        ]
        return value.jsonString()
    }

    /// Runs `body` with a context that collects the backend's notices, and returns them with the result.
    static func collectingNotices<T: Sendable>(
        deadline: ContinuousClock.Instant? = nil, _ body: () async throws -> T
    ) async -> (Result<T, any Error>, [ModelServerNotice]) {
        let (notices, sink) = AsyncStream<ModelServerNotice>.makeStream()
        let result: Result<T, any Error>
        do {
            result = .success(
                try await ModelServerContext.$current.withValue(
                    ModelServerContext(deadline: deadline, notices: sink), operation: body))
        } catch {
            result = .failure(error)
        }
        sink.finish()
        var seen: [ModelServerNotice] = []
        for await notice in notices { seen.append(notice) }
        return (result, seen)
    }
}
