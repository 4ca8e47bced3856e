import Foundation
import LanguageModels
import ParleyHTTP
import ParleyJSON
import Synchronization

// Availability as Apple's `SystemLanguageModel` reports it, for a server: a short probe of `/v1/models` (or
// `/health`), whose answer is kept, refreshed on demand, and corrected by what the backend's own requests show.

extension OpenAICompatibleLanguageModel {
    /// Apple's name for the type of `availability`.
    public typealias Availability = LanguageModelAvailability

    /// What the backend last learnt of its server, without waiting.
    ///
    /// - After `connect(_:)`, or after `refreshAvailability()`: what that probe found.
    /// - After a request: `.available` when the server answered, `.unavailable(.serverUnreachable)` when nothing
    ///   did, `.unavailable(.modelMissing)` when it said it has no such model.
    /// - Before any of these (a backend made with `init(configuration:)` and not used yet):
    ///   `.unavailable(.modelNotReady)`, and a probe starts in the background, so a later read knows.
    ///
    /// To wait for a fresh answer, call `refreshAvailability()`.
    public var availability: LanguageModelAvailability {
        availabilityCache.withLock { state in
            if let known = state.value { return known }
            if state.backgroundProbe == nil {
                state.backgroundProbe = Task { await self.refreshAvailability() }
            }
            return .unavailable(.modelNotReady)
        }
    }

    /// The probe a read of `availability` started because nothing was known, if one did.
    var backgroundProbe: Task<LanguageModelAvailability, Never>? {
        availabilityCache.withLock { $0.backgroundProbe }
    }

    /// Asks the server now whether the model can answer, within `Configuration.availabilityTimeout`, and keeps the
    /// answer for `availability`.
    ///
    /// Sends `GET /v1/models`: a list naming the configured model (or any model, when none is configured) means
    /// `.available`; a list without it `.modelMissing`; 503 `.modelNotReady` (llama-server while it loads); 401 or
    /// 403 `.unauthorized`; no connection, a timeout or another server error `.serverUnreachable`; anything that is
    /// not such a list `.unsupported`. A server without `/v1/models` (404) is asked `GET /health` instead. It is never
    /// retried, and never takes longer than the timeout (twice, when `/health` is asked too).
    ///
    /// - Returns: The server's availability.
    @discardableResult
    public func refreshAvailability() async -> LanguageModelAvailability {
        let result = await probeAvailability()
        availabilityCache.withLock { $0.value = result }
        return result
    }

    /// The context window when it is known without asking: configured, or read from the server before (by
    /// `connect(_:)` or a first request). `nil` until then, and when the server does not say.
    public var knownContextSize: Int? {
        configuration.contextSize ?? knownServerInfo?.contextSize
    }

    // MARK: - Probing

    private func probeAvailability() async -> LanguageModelAvailability {
        let models = await probe(configuration.baseURL + "/models")
        switch models {
        case .unavailable(let reason):
            return .unavailable(reason)
        case .answered(let response) where response.status == 404:
            switch await probe(configuration.rootURL + "/health") {
            case .unavailable(let reason): return .unavailable(reason)
            case .answered(let health): return health.status == 404 ? .unavailable(.unsupported) : .available
            }
        case .answered(let response):
            guard let json = try? JSONValue(parsing: Array(response.body)), let list = json["data"]?.arrayValue else {
                return .unavailable(.unsupported)
            }
            let ids = list.compactMap { $0["id"]?.stringValue }
            return Self.lists(configuration.model, in: ids) ? .available : .unavailable(.modelMissing)
        }
    }

    /// Whether a model list has `model` (any model, when `nil`); Ollama lists `name:latest` for `name`.
    static func lists(_ model: String?, in ids: [String]) -> Bool {
        guard let model else { return !ids.isEmpty }
        return ids.contains { $0 == model || $0 == model + ":latest" || $0 + ":latest" == model }
    }

    /// One GET within the availability timeout: a successful or 404 response (body at most 1 MiB), or the reason
    /// any other outcome means.
    private func probe(_ url: String) async -> ProbeOutcome {
        var request = HTTPRequest.get(url, headers: authorizationHeaders)
        let timeout = max(configuration.availabilityTimeout, .milliseconds(1))
        request.connectTimeout = timeout
        request.timeout = timeout
        do {
            let response = try await client.stream(request)
            switch response.status {
            case 200..<300, 404:
                return .answered(try await response.collect(maximumBodySize: 1 << 20))
            case 401, 403:
                response.cancel()
                return .unavailable(.unauthorized)
            case 503:
                response.cancel()
                return .unavailable(.modelNotReady)
            case 500...:
                response.cancel()
                return .unavailable(.serverUnreachable)
            default:
                response.cancel()
                return .unavailable(.unsupported)
            }
        } catch let error as HTTPClientError where error == .invalidResponse || error == .responseTooLarge {
            return .unavailable(.unsupported)
        } catch {
            return .unavailable(.serverUnreachable)
        }
    }

    /// Records what a request showed of the server's availability.
    func noteAvailability(_ availability: LanguageModelAvailability) {
        availabilityCache.withLock { $0.value = availability }
    }

    /// Records what a failed request shows of the server's availability, if anything.
    func noteAvailability(after error: any Error) {
        guard let error = error as? ModelServerError else { return }
        if error == .unreachable {
            noteAvailability(.unavailable(.serverUnreachable))
        } else if error == .notFound {
            noteAvailability(.unavailable(.modelMissing))
        } else if error == .unauthorized {
            noteAvailability(.unavailable(.unauthorized))
        }
    }
}

/// What one availability probe got: an answer to read, or a reason the model is unavailable.
private enum ProbeOutcome {
    case answered(HTTPResponse)
    case unavailable(LanguageModelAvailability.UnavailableReason)
}

/// What the backend last learnt of its server's availability, shared by a backend and its copies.
final class AvailabilityCache: Sendable {
    struct State {
        /// The last answer; `nil` before any.
        var value: LanguageModelAvailability?
        /// The probe a read of `availability` started when nothing was known; kept once started, so only one starts.
        var backgroundProbe: Task<LanguageModelAvailability, Never>?
    }

    // The Mutex protects the state; the class only lets copies of a backend share it.
    private let state = Mutex(State())

    func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}
