import Foundation
import LanguageModels
import ParleyBasics
import ParleyHTTP
import ParleyJSON

// Sending requests: headers, time limits, size limits, retries with backoff (announced through
// `ModelServerContext`), the translation of HTTP failures into `LanguageModelError`s and `ModelServerError`s, and
// the removal of the API key from everything the server sends back.

extension OpenAICompatibleLanguageModel {
    /// Sends a whole request and returns its successful response, whose body is at most `limits.wholeBodyBytes`.
    func send(endpoint: String, body: Data, limits: ReplyLimits) async throws -> HTTPResponse {
        try await notingAvailability {
            try await sendOnce(endpoint: endpoint, body: body, limits: limits)
        }
    }

    /// Runs a request to the chat endpoint and records what its outcome shows of the server's availability.
    private func notingAvailability<T: Sendable>(_ request: () async throws -> T) async throws -> T {
        do {
            let result = try await request()
            noteAvailability(.available)
            return result
        } catch {
            noteAvailability(after: error)
            throw error
        }
    }

    private func sendOnce(endpoint: String, body: Data, limits: ReplyLimits) async throws -> HTTPResponse {
        try await withRetries {
            var request = self.request(url: self.configuration.baseURL + endpoint, body: body, stream: false)
            request.timeout = self.configuration.requestTimeout
            let response = try await self.client.stream(request)
            try await self.checkStatus(of: response)
            do {
                return try await response.collect(maximumBodySize: limits.wholeBodyBytes)
            } catch let error as HTTPClientError where error == .responseTooLarge {
                throw ModelServerError.responseTooLarge.with(
                    url: self.configuration.baseURL, detail: limits.explanation(passing: limits.wholeBodyBytes))
            }
        }
    }

    /// Opens a streamed request and returns once the server accepted it.
    func openStream(body: Data) async throws -> HTTPStreamingResponse {
        try await notingAvailability { try await openStreamOnce(body: body) }
    }

    private func openStreamOnce(body: Data) async throws -> HTTPStreamingResponse {
        try await withRetries {
            var request = self.request(url: self.configuration.baseURL + "/chat/completions", body: body, stream: true)
            request.idleTimeout = self.configuration.idleTimeout
            let response = try await self.client.stream(request)
            try await self.checkStatus(of: response)
            return response
        }
    }

    /// POSTs JSON to one of the server's endpoints and returns the JSON answer.
    func post(endpoint: String, root: Bool, body: JSONValue) async throws -> JSONValue {
        let base = root ? configuration.rootURL : configuration.baseURL
        return try await withRetries {
            var request = self.request(url: base + endpoint, body: Data(body.jsonString().utf8), stream: false)
            request.timeout = .seconds(60)
            let streamed = try await self.client.stream(request)
            try await self.checkStatus(of: streamed)
            let response = try await streamed.collect(maximumBodySize: Self.maximumEndpointBodyBytes)
            guard let json = try? JSONValue(parsing: Array(response.body)) else {
                throw ModelServerError.invalidResponse.with(
                    url: base + endpoint, detail: "the body is not JSON: \(Self.excerpt(response.bodyText))")
            }
            return json
        }
    }

    /// GETs JSON, or `nil` when the server does not have the endpoint or answers with anything but JSON: the
    /// details these endpoints give are optional. Only an unreachable server or cancellation is an error.
    func optionalGet(_ url: String) async throws -> JSONValue? {
        do {
            // Retried without a word: what these endpoints give is optional, and the request that matters follows.
            return try await withRetries(announcing: false) {
                var request = HTTPRequest.get(url, headers: self.authorizationHeaders)
                request.connectTimeout = self.configuration.connectTimeout
                request.timeout = min(.seconds(30), self.configuration.requestTimeout)
                request.idleTimeout = self.configuration.idleTimeout
                let response = try await self.client.stream(request)
                guard response.isSuccess else {
                    response.cancel()
                    return nil
                }
                let whole = try await response.collect(maximumBodySize: Self.maximumEndpointBodyBytes)
                return try? JSONValue(parsing: Array(whole.body))
            }
        } catch let error as ModelServerError where error == .unreachable {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return nil
        }
    }

    /// The most bytes of an answer from `/props`, `/models`, `/tokenize` or `/apply-template` (a long prompt's
    /// tokens or templated text).
    static let maximumEndpointBodyBytes = 16 << 20

    private func request(url: String, body: Data, stream: Bool) -> HTTPRequest {
        var request = HTTPRequest.postJSON(
            url, body: body, headers: authorizationHeaders, accept: stream ? "text/event-stream" : "application/json")
        request.connectTimeout = configuration.connectTimeout
        return request
    }

    var authorizationHeaders: HTTPHeaders {
        var headers: HTTPHeaders = [:]
        if let key = configuration.apiKey { headers.add(name: "Authorization", value: "Bearer \(key)") }
        return headers
    }

    // MARK: - Secrets

    /// Removes the API key (alone, as `Bearer <key>`, and any other bearer token) from text the server sent.
    var redactor: SecretRedactor { Self.redactor(apiKey: configuration.apiKey) }

    private static func redactor(apiKey: String?) -> SecretRedactor {
        // A key too short to be a secret ("gold") is a word: not "Bearer gold" either.
        SecretRedactor(
            secrets: apiKey.map { $0.count >= SecretRedactor.minimumSecretLength ? [$0, "Bearer \($0)"] : [] } ?? [])
    }

    /// Text with this backend's API key removed (alone and as `Bearer <key>`), and any other bearer token: the
    /// `LanguageModel` requirement, which the engine calls on every failure it records or shows.
    ///
    /// The backend already removes the key from every error it throws and from what the model says; this is for
    /// callers that keep text of their own making (a failure's description in a recording) and want to be sure.
    ///
    /// - Parameter text: The text.
    /// - Returns: The text without the key, which is replaced by `<redacted>`.
    public func redactingSecrets(in text: String) -> String {
        redactor.redact(text)
    }

    /// Text with an API key removed (alone and as `Bearer <key>`), and any bearer token.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - apiKey: The key, or `nil` to remove bearer tokens only.
    /// - Returns: The text without the key, which is replaced by `<redacted>`.
    public static func redactingSecrets(in text: String, apiKey: String?) -> String {
        redactor(apiKey: apiKey).redact(text)
    }

    /// The error with the API key removed from every text it carries.
    func redacted(_ error: any Error) -> any Error {
        let redactor = self.redactor
        switch error {
        case let error as ModelServerError:
            return error.with(detail: redactor.redact(error.detail))
        case let error as GeneratedContent.ParsingError:
            return GeneratedContent.ParsingError(
                rawContent: redactor.redactKnown(error.rawContent),
                debugDescription: redactor.redact(error.debugDescription))
        case LanguageModelError.rateLimited(var info):
            info.debugDescription = redactor.redact(info.debugDescription)
            return LanguageModelError.rateLimited(info)
        case LanguageModelError.timeout(var info):
            info.debugDescription = redactor.redact(info.debugDescription)
            return LanguageModelError.timeout(info)
        case LanguageModelError.contextSizeExceeded(var info):
            info.debugDescription = redactor.redact(info.debugDescription)
            return LanguageModelError.contextSizeExceeded(info)
        case LanguageModelError.refusal(var info):
            info.explanationText = redactor.redactKnown(info.explanationText)
            info.debugDescription = redactor.redact(info.debugDescription)
            return LanguageModelError.refusal(info)
        default:
            return error
        }
    }

    // MARK: - Retries

    /// Runs `attempt`, retrying server errors, resets, timeouts and rate limits with exponential backoff (or the
    /// wait a 429 asks for), announcing each retry to `ModelServerContext.current` unless told not to; maps the
    /// final failure to a Parley error, without the API key.
    func withRetries<T: Sendable>(
        announcing: Bool = true, _ attempt: @Sendable () async throws -> T
    ) async throws -> T {
        let context = ModelServerContext.current
        let attempts = max(configuration.maximumRetries, 0).saturatingAdding(1)
        var delay = configuration.retryDelay
        var tries = 0
        while true {
            do {
                return try await attempt()
            } catch {
                let mapped = redacted(map(error))
                tries += 1
                guard tries < attempts, let (reason, wait) = retryPlan(for: mapped, backoff: delay) else {
                    throw mapped
                }
                let limit = context.timeLeft ?? (reason == .rateLimited ? configuration.maximumRateLimitWait : nil)
                if let limit, wait > limit {
                    // Waiting would outlast the turn (or the longest rate-limit wait): fail now, saying why.
                    guard case LanguageModelError.rateLimited(var info) = mapped else { throw mapped }
                    let what = context.deadline == nil ? "the longest wait allowed" : "the time left for this turn"
                    info.debugDescription +=
                        " It asks to wait \(ModelServerNotice.wholeSeconds(wait)) s, more than \(what) "
                        + "(\(ModelServerNotice.wholeSeconds(limit)) s)."
                    throw LanguageModelError.rateLimited(info)
                }
                if announcing {
                    context.notices?.yield(
                        ModelServerNotice(reason: reason, attempt: tries + 1, attempts: attempts, wait: wait))
                }
                try await Task.sleep(for: wait)
                delay *= 2
            }
        }
    }

    /// Why and after how long a failure is retried, or `nil` when it is not.
    private func retryPlan(for error: any Error, backoff: Duration) -> (ModelServerNotice.Reason, Duration)? {
        switch error {
        case let error as ModelServerError where error.isRetryable:
            return (.failed(status: error.status), backoff)
        case LanguageModelError.timeout:
            return (.noAnswer, backoff)
        case LanguageModelError.rateLimited(let info):
            return (.rateLimited, info.resetDate.map(Self.wait(until:)) ?? backoff)
        default:
            return nil
        }
    }

    /// Translates transport errors into Parley's.
    private func map(_ error: any Error) -> any Error {
        guard let error = error as? HTTPClientError else { return error }
        let url = configuration.baseURL
        if error == .cancelled { return CancellationError() }
        if error == .connectionRefused || error == .couldNotResolveHost || error == .connectTimeout {
            return ModelServerError.unreachable.with(url: url, detail: error.detail ?? "\(error)")
        }
        if error.isTimeout {
            return LanguageModelError.timeout(.init(debugDescription: "\(error)"))
        }
        if error == .connectionReset || error == .transferFailed {
            return ModelServerError.serverError.with(url: url, detail: "\(error)")
        }
        if error == .invalidResponse {
            return ModelServerError.invalidResponse.with(url: url, detail: "\(error)")
        }
        return error
    }

    // MARK: - Status codes

    /// Throws the error a non-2xx status means, after reading at most `ReplyLimits.errorBodyBytes` of the body
    /// (the server's explanation); the rest is not read.
    func checkStatus(of response: HTTPStreamingResponse) async throws {
        guard !response.isSuccess else { return }
        let (body, _) = try await response.bytes.collectPrefix(maximumBytes: ReplyLimits.errorBodyBytes)
        try check(status: response.status, headers: response.headers, body: body)
    }

    /// Throws the error a non-2xx status means.
    func check(status: Int, headers: HTTPHeaders, body: Data) throws {
        guard !(200..<300).contains(status) else { return }
        let text = redactor.redact(String(decoding: body, as: UTF8.self))
        let json = try? JSONValue(parsing: Array(body))
        let error = json?["error"]
        let message = redactor.redact(error?["message"]?.stringValue ?? error?.stringValue ?? Self.excerpt(text))
        let url = configuration.baseURL
        let page = json == nil ? Self.webPage(headers: headers, text: text) : nil
        switch status {
        case 429:
            let reset = Self.resetDate(headers)
            let asked = reset.map { " (Retry-After: \(ModelServerNotice.wholeSeconds(Self.wait(until: $0))) s)" }
            throw LanguageModelError.rateLimited(
                .init(
                    resetDate: reset,
                    debugDescription: "The server at \(url) is rate limiting\(asked ?? "")"
                        + (page.map { ", with a web page\(Self.titled($0))" } ?? ": \(message)") + "."))
        case 401, 403:
            throw ModelServerError.unauthorized.with(
                url: url, status: status, detail: page.map { "a web page\(Self.titled($0))" } ?? message)
        case _ where page != nil:
            throw ModelServerError.webPage.with(url: url, status: status, detail: Self.pageDetail(page ?? ""))
        case 300..<400:
            let location = headers["Location"].map { " to \(HTTPRequest.get($0).redactedURL)" } ?? ""
            throw ModelServerError.redirected.with(url: url, status: status, detail: "it points\(location)")
        case 400, 413, 422:
            if let overflow = Self.contextOverflow(error: error, message: message) { throw overflow }
            throw ModelServerError.badRequest.with(url: url, status: status, detail: message)
        case 404:
            throw ModelServerError.notFound.with(url: url, status: status, detail: message)
        case 408:
            throw LanguageModelError.timeout(.init(debugDescription: "The server timed out: \(message)"))
        default:
            throw ModelServerError.serverError.with(url: url, status: status, detail: message)
        }
    }

    /// The title of an HTML page (`""` when it has none), or `nil` when the body is not a web page.
    static func webPage(headers: HTTPHeaders, text: String) -> String? {
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.prefix(256).lowercased()
        let isHTML =
            headers["Content-Type"]?.lowercased().contains("html") == true || start.hasPrefix("<!doctype html")
            || start.hasPrefix("<html") || start.hasPrefix("<head") || start.hasPrefix("<body")
        guard isHTML else { return nil }
        guard let open = text.range(of: "<title", options: .caseInsensitive),
            let close = text[open.upperBound...].range(of: ">"),
            let end = text[close.upperBound...].range(of: "</title", options: .caseInsensitive)
        else { return "" }
        let title = text[close.upperBound..<end.lowerBound].split(whereSeparator: \.isWhitespace)
        return String(title.joined(separator: " ").prefix(100))
    }

    /// ` titled "…"`, or nothing for a page without a title.
    static func titled(_ title: String) -> String { title.isEmpty ? "" : " titled \"\(title)\"" }

    /// What `ModelServerError.webPage` says of a page: its title, if it has one.
    static func pageDetail(_ title: String) -> String { title.isEmpty ? "" : "the page is titled \"\(title)\"" }

    /// `contextSizeExceeded` for llama-server's `exceed_context_size_error` and OpenAI's
    /// `context_length_exceeded`, with the counts when the server gives them.
    static func contextOverflow(error: JSONValue?, message: String) -> LanguageModelError? {
        let type = error?["type"]?.stringValue ?? ""
        let code = error?["code"]?.stringValue ?? ""
        let lowered = message.lowercased()
        guard
            type == "exceed_context_size_error" || code == "context_length_exceeded"
                || lowered.contains("context length") || lowered.contains("context size")
                || lowered.contains("exceeds the available context")
        else { return nil }
        let numbers = Self.numbers(in: message)
        let contextSize =
            error?["n_ctx"]?.intValue ?? Self.number(after: "maximum context length is", in: message) ?? numbers.first
            ?? 0
        let tokens =
            error?["n_prompt_tokens"]?.intValue ?? Self.number(after: "resulted in", in: message) ?? numbers.last ?? 0
        return .contextSizeExceeded(
            .init(contextSize: contextSize, tokenCount: tokens, debugDescription: "The server says: \(message)"))
    }

    private static func number(after phrase: String, in text: String) -> Int? {
        guard let range = text.range(of: phrase) else { return nil }
        return numbers(in: String(text[range.upperBound...])).first
    }

    private static func numbers(in text: String) -> [Int] {
        text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    }

    /// The wait until a date, from zero (a date in the past) to a billion seconds.
    static func wait(until date: Date) -> Duration {
        let seconds = date.timeIntervalSinceNow
        guard seconds.isFinite, seconds > 0 else { return .zero }
        return .milliseconds(Int64(min(seconds, 1e9) * 1000))
    }

    /// When to retry after a 429: `Retry-After` (seconds or an HTTP date), or OpenAI's
    /// `x-ratelimit-reset-requests` (`1s`, `6m0s`).
    static func resetDate(_ headers: HTTPHeaders, now: Date = Date()) -> Date? {
        if let value = headers["Retry-After"] {
            if let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds >= 0 {
                return now.addingTimeInterval(min(seconds, 1e9))
            }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            if let date = formatter.date(from: value) { return date }
        }
        if let value = headers["x-ratelimit-reset-requests"] ?? headers["x-ratelimit-reset-tokens"] {
            var seconds = 0.0
            var number = ""
            for character in value {
                if character.isNumber || character == "." {
                    number.append(character)
                } else {
                    let amount = Double(number) ?? 0
                    number = ""
                    switch character {
                    case "h": seconds += amount * 3600
                    case "m": seconds += amount * 60
                    case "s": seconds += amount
                    default: break
                    }
                }
            }
            if value.hasSuffix("ms") { seconds = (Double(value.dropLast(2)) ?? 0) / 1000 }
            return seconds.isFinite && seconds > 0 ? now.addingTimeInterval(min(seconds, 1e9)) : nil
        }
        return nil
    }
}
