import Foundation
import HTTPTestSupport
import ParleyJSON
import Synchronization

@testable import OpenAICompatible

/// A loopback server that answers like llama-server with `--slot-save-path`: `/props` with its slots, slot saves
/// that create files, restores that need them, and chat completions; or like a server without slot actions.
///
/// It keeps no KV caches; what it records (`actions`, `chatSlots`) is what the tests check: the protocol.
final class FakeSlotServer: Sendable {
    /// How the fake answers slot actions.
    enum SlotActions: Sendable {
        /// As llama-server with `--slot-save-path`.
        case supported
        /// Every slot action gets this status (404 from an old build, 501 without `--slot-save-path`).
        case refused(status: Int)
        /// Restores get this response; saves work.
        case restoring(LoopbackResponse)
    }

    /// A slot action the server received.
    struct Action: Sendable, Equatable, CustomStringConvertible {
        var name: String
        var slot: Int
        var fileName: String
        var description: String { "\(name) \(slot) \(fileName)" }
    }

    private struct State {
        var files: Set<String> = []
        var actions: [Action] = []
        var chats: [(slot: Int?, maxTokens: Int?)] = []
    }

    /// The state the server's threads and the test share.
    private final class Store: Sendable {
        // The Mutex protects the state; the class lets the handler and the test share it.
        let state = Mutex(State())
    }

    let http: LoopbackHTTPServer
    private let store: Store

    /// Starts the fake.
    ///
    /// - Parameters:
    ///   - slots: The server's `total_slots`.
    ///   - actions: How slot actions are answered.
    ///   - chat: The answer to chat completions (a whole completion by default).
    init(
        slots: Int = 1, actions: SlotActions = .supported,
        chat: @escaping @Sendable (LoopbackRequest) -> LoopbackResponse = { _ in .json(ServerTest.completion("Hm.")) }
    ) throws {
        let store = Store()
        self.store = store
        http = try LoopbackHTTPServer { request in
            if request.path == "/props" {
                return .json(
                    #"{"default_generation_settings":{"n_ctx":4096,"params":{}},"total_slots":\#(slots),"#
                        + #""model_path":"/models/tiny.gguf","build_info":"b1-test","#
                        + #""chat_template_caps":{"supports_tool_calls":true}}"#)
            }
            if request.path.hasPrefix("/slots/") {
                let slot = Int(request.path.dropFirst("/slots/".count)) ?? -1
                let name = request.query?.replacingOccurrences(of: "action=", with: "") ?? ""
                let body = try? JSONValue(parsing: Array(request.body))
                let file = body?["filename"]?.stringValue ?? ""
                let exists = store.state.withLock { state -> Bool in
                    state.actions.append(Action(name: name, slot: slot, fileName: file))
                    return state.files.contains(file)
                }
                switch actions {
                case .refused(let status):
                    return .json(
                        #"{"error":{"code":\#(status),"message":"This server does not support slots action.","type":"not_supported_error"}}"#,
                        status: status)
                case .restoring(let response) where name == "restore":
                    return response
                default:
                    break
                }
                if name == "save" {
                    store.state.withLock { _ = $0.files.insert(file) }
                    return .json(
                        #"{"id_slot":\#(slot),"filename":"\#(file)","n_saved":12,"n_written":4096,"timings":{"save_ms":1.5}}"#
                    )
                }
                guard exists else {
                    return .json(
                        #"{"error":{"code":400,"message":"Unable to restore slot, no available space in KV cache or invalid slot save file","type":"invalid_request_error"}}"#,
                        status: 400)
                }
                return .json(
                    #"{"id_slot":\#(slot),"filename":"\#(file)","n_restored":12,"n_read":4096,"timings":{"restore_ms":0.5}}"#
                )
            }
            if request.path.hasSuffix("/chat/completions") {
                let body = try? JSONValue(parsing: Array(request.body))
                store.state.withLock {
                    $0.chats.append((body?["id_slot"]?.intValue, body?["max_tokens"]?.intValue))
                }
                return chat(request)
            }
            return .text("not found", status: 404)
        }
    }

    /// The slot actions so far, in order.
    var actions: [Action] { store.state.withLock { $0.actions } }
    /// The `id_slot` of each chat request so far (`nil` when unpinned).
    var chatSlots: [Int?] { store.state.withLock { $0.chats.map(\.slot) } }
    /// The `max_tokens` of each chat request so far.
    var chatMaxTokens: [Int?] { store.state.withLock { $0.chats.map(\.maxTokens) } }
    /// Requests to `/slots/…` so far.
    var slotRequests: Int { http.requests.filter { $0.path.hasPrefix("/slots/") }.count }

    /// A file as the backend names it: `parley-w-<name>-…`, for a key of scope `w`.
    func has(fileOf name: String) -> Bool {
        store.state.withLock { $0.files.contains { $0.hasPrefix("parley-w-\(name)-") } }
    }

    /// A backend on this server (its details read from `/props`), with short waits.
    func model(slotCacheTimeout: Duration = .seconds(60)) throws -> OpenAICompatibleLanguageModel {
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: http.baseURL + "/v1", apiKey: nil, contextSize: 1 << 20, toolCalling: .native)
        configuration.maximumRetries = 0
        configuration.slotCacheTimeout = slotCacheTimeout
        return try OpenAICompatibleLanguageModel(configuration: configuration)
    }

    func stop() { http.stop() }
}
