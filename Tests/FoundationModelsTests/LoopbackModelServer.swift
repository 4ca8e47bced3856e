import Foundation
import HTTPTestSupport

/// A loopback OpenAI-compatible server answering every chat completion with `reply`, listing `adapters` at
/// `/lora-adapters` when given (and answering 404 there when not), and recording requests: the one file of these
/// tests that imports more than FoundationModels.
final class LoopbackModelServer: Sendable {
    let server: LoopbackHTTPServer

    init(reply: String, adapters: String? = nil) throws {
        let content = String(data: try JSONEncoder().encode(reply), encoding: .utf8)!
        server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/v1/models": .json(#"{"object":"list","data":[{"id":"planner","object":"model"}]}"#)
            case "/v1/chat/completions":
                .json(
                    #"{"choices":[{"index":0,"message":{"role":"assistant","content":"# + content
                        + #"},"finish_reason":"stop"}]}"#)
            case "/lora-adapters": adapters.map { .json($0) } ?? .text("not found", status: 404)
            default: .text("not found", status: 404)
            }
        }
    }

    /// The server's `/v1` URL.
    var url: String { server.url("/v1") }

    /// The bodies of the chat completions asked for.
    var chatBodies: [String] { server.requests.filter { $0.path == "/v1/chat/completions" }.map(\.bodyText) }

    func stop() { server.stop() }
}
