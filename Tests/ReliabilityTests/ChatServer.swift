import Foundation
import HTTPTestSupport
import LanguageModels
import OpenAICompatible
import Synchronization

/// A loopback chat-completions server whose answers the test switches: healthy (it streams "You said: <the
/// player's words>."), a fault, or a script of streams. Every other path is 404, as for a server that is not
/// llama-server.
final class ChatServer: Sendable {
    /// What `/chat/completions` does.
    enum Mode: Sendable {
        /// Streams "You said: <last user message>." word by word.
        case echo
        /// Does this, whatever was asked.
        case fault(LoopbackResponse)
        /// Streams these chunks, one list per request in turn, then echoes.
        case script([[String]])
    }

    /// The mode, shared with the server's handler.
    final class Switch: Sendable {
        let mode: Mutex<Mode>
        init(_ mode: Mode) { self.mode = Mutex(mode) }
    }

    let server: LoopbackHTTPServer
    private let current: Switch

    init(_ mode: Mode = .echo) throws {
        let box = Switch(mode)
        current = box
        server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("not found", status: 404) }
            let next = box.mode.withLock { mode -> Mode in
                if case .script(var streams) = mode, !streams.isEmpty {
                    let first = streams.removeFirst()
                    mode = streams.isEmpty ? .echo : .script(streams)
                    return .script([first])
                }
                return mode
            }
            let echo = LoopbackResponse.eventStream(
                ChatStreams.text("You said: \(ChatStreams.lastUserMessage(request))."))
            switch next {
            case .echo: return echo
            case .script(let streams): return streams.first.map { .eventStream($0) } ?? echo
            case .fault(let response): return response
            }
        }
    }

    deinit { server.stop() }

    /// Switches what `/chat/completions` does from the next request on.
    func set(_ next: Mode) { current.mode.withLock { $0 = next } }

    /// The requests to `/chat/completions` so far.
    var chatRequests: [LoopbackRequest] { server.requests.filter { $0.path.hasSuffix("/chat/completions") } }

    /// A backend for this server: native tools, a known context size (so nothing asks `/props` mid-test), no
    /// retries unless asked, a short idle timeout.
    func model(
        apiKey: String? = nil, retries: Int = 0, idle: Duration = .seconds(5)
    ) throws
        -> OpenAICompatibleLanguageModel
    {
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", apiKey: apiKey, contextSize: 8_192, toolCalling: .native)
        configuration.maximumRetries = retries
        configuration.retryDelay = .milliseconds(10)
        configuration.idleTimeout = idle
        return try OpenAICompatibleLanguageModel(configuration: configuration)
    }
}
