/// A failure talking to a model server that is not one of the model's own conditions (those are
/// `LanguageModelError`s): the server cannot be reached, refuses the key, does not know the URL or the model,
/// fails, breaks off a stream, answers with something that is not a chat completion (a web page, a redirect), or
/// sends more than the request allows.
///
/// Every description names the server's URL (never the API key: what the server echoes is redacted) and says
/// what to do.
public struct ModelServerError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case unreachable, unauthorized, notFound, badRequest, serverError, streamInterrupted, invalidResponse
        case webPage, redirected, responseTooLarge, contextTooSmall
    }

    private let code: Code
    /// The server's base URL.
    public let url: String
    /// The HTTP status, when the server answered with one.
    public let status: Int?
    /// What the server or the transport said.
    public let detail: String

    private init(_ code: Code, url: String, status: Int? = nil, detail: String) {
        self.code = code
        self.url = url
        self.status = status
        self.detail = detail
    }

    /// Nothing answers at the URL.
    public static let unreachable = ModelServerError(.unreachable, url: "", detail: "")
    /// The server refused the API key (401 or 403).
    public static let unauthorized = ModelServerError(.unauthorized, url: "", detail: "")
    /// The server does not know the endpoint or the model (404).
    public static let notFound = ModelServerError(.notFound, url: "", detail: "")
    /// The server rejected the request (400 or 422) for a reason other than the context window.
    public static let badRequest = ModelServerError(.badRequest, url: "", detail: "")
    /// The server failed (5xx), even after retries.
    public static let serverError = ModelServerError(.serverError, url: "", detail: "")
    /// A streamed response broke off before it was complete.
    public static let streamInterrupted = ModelServerError(.streamInterrupted, url: "", detail: "")
    /// The response is not a chat completion.
    public static let invalidResponse = ModelServerError(.invalidResponse, url: "", detail: "")
    /// The response is a web page (HTML): a proxy's error page, a captive portal's sign-in page, a web server.
    public static let webPage = ModelServerError(.webPage, url: "", detail: "")
    /// The server redirects (3xx), and redirects are not followed.
    public static let redirected = ModelServerError(.redirected, url: "", detail: "")
    /// The reply is larger than the request allows (`max_tokens` at a generous number of bytes a token, or
    /// `maximumReplyBytes`); it was cut off, not kept.
    public static let responseTooLarge = ModelServerError(.responseTooLarge, url: "", detail: "")

    /// The server reports a context window too small for any conversation (0, negative, or below
    /// `OpenAICompatibleLanguageModel.minimumContextSize` tokens): every turn would fail, so it is refused at start.
    public static let contextTooSmall = ModelServerError(.contextTooSmall, url: "", detail: "")

    /// This kind of error at a URL, with details.
    func with(url: String, status: Int? = nil, detail: String) -> ModelServerError {
        ModelServerError(code, url: url, status: status, detail: detail)
    }

    /// Compares the kind only.
    ///
    /// - Parameters:
    ///   - lhs: An error.
    ///   - rhs: Another, usually a static member such as `.unreachable`.
    /// - Returns: Whether both are the same kind.
    public static func == (lhs: ModelServerError, rhs: ModelServerError) -> Bool { lhs.code == rhs.code }

    /// Whether retrying the same request may succeed: a server error, or a proxy's error page (5xx).
    var isRetryable: Bool { code == .serverError || (code == .webPage && (status ?? 0) >= 500) }

    /// The same error with other details, for example with secrets removed.
    func with(detail: String) -> ModelServerError {
        ModelServerError(code, url: url, status: status, detail: detail)
    }

    /// What happened, where, and what to do.
    public var description: String {
        let statusText = status.map { " (HTTP \($0))" } ?? ""
        let because = detail.isEmpty ? "" : ": \(detail)"
        switch code {
        case .unreachable:
            return "Could not reach the model server at \(url)\(because). Start one (for the local LLM: "
                + "scripts/llm-server start --port <port>, then use http://127.0.0.1:<port>/v1), or check the URL "
                + "given with --model or PARLEY_MODEL."
        case .unauthorized:
            return "The model server at \(url) refused the API key\(statusText)\(because). Set OPENAI_API_KEY "
                + "(or the apiKey setting) to a valid key."
        case .notFound:
            return "The model server at \(url) does not know this endpoint or model\(statusText)\(because). "
                + "Check that the URL ends in /v1 and that the model name is one the server serves."
        case .badRequest:
            return "The model server at \(url) rejected the request\(statusText)\(because). Check the model "
                + "name and the extra body parameters; the server's message says which field."
        case .serverError:
            return "The model server at \(url) failed\(statusText)\(because), also after retrying. Check its "
                + "log; it may be out of memory or still loading the model."
        case .streamInterrupted:
            return "The response from \(url) broke off before it was complete\(because). The turn was not "
                + "recorded; try again, and check the server's log if it keeps happening."
        case .invalidResponse:
            return "The model server at \(url) answered with something that is not a chat completion"
                + "\(because). Check that the URL points at an OpenAI-compatible /v1 endpoint."
        case .webPage:
            return "The address \(url) answered with a web page (HTML)\(statusText), not a chat completion"
                + "\(because). A proxy, a network's sign-in page (captive portal) or a web server answers there "
                + "instead of the model server: check the URL given with --model or PARLEY_MODEL, the proxy "
                + "settings (https_proxy, no_proxy), and that the network is signed in."
        case .redirected:
            return "The model server at \(url) redirects elsewhere\(statusText)\(because). Redirects are not "
                + "followed: use the URL it points to, or sign in to the network if it is a captive portal."
        case .responseTooLarge:
            return "The model server at \(url) sent a reply larger than the request allows\(because). It was "
                + "cut off and not kept. The server may ignore max_tokens, or something other than a model "
                + "server answers there; check its log and the URL."
        case .contextTooSmall:
            return "The model server at \(url) reports a context window of \(detail) tokens, less than the "
                + "\(OpenAICompatibleLanguageModel.minimumContextSize) a conversation needs, so every turn would fail. "
                + "Start it with a larger context (llama-server --ctx-size 8192; with --parallel N each slot gets "
                + "ctx-size/N), or check that the URL points at the model server."
        }
    }
}
