import Foundation
import LanguageModels
import ParleyHTTP
import ParleyJSON

// Sending requests: headers, time limits, retries with backoff, and the translation of HTTP failures into
// `LanguageModelError`s and `ModelServerError`s.

extension OpenAICompatibleLanguageModel {
    /// Sends a whole request and returns its successful response.
    func send(endpoint: String, body: Data, stream: Bool) async throws -> HTTPResponse {
        try await withRetries {
            var request = self.request(url: self.configuration.baseURL + endpoint, body: body, stream: false)
            request.timeout = self.configuration.requestTimeout
            let response = try await self.client.execute(request)
            try self.check(status: response.status, headers: response.headers, body: response.body)
            return response
        }
    }

    /// Opens a streamed request and returns once the server accepted it.
    func openStream(body: Data) async throws -> HTTPStreamingResponse {
        try await withRetries {
            var request = self.request(url: self.configuration.baseURL + "/chat/completions", body: body, stream: true)
            request.idleTimeout = self.configuration.idleTimeout
            let response = try await self.client.stream(request)
            if !response.isSuccess {
                let whole = try await response.collect(maximumBodySize: 1 << 20)
                try self.check(status: whole.status, headers: whole.headers, body: whole.body)
            }
            return response
        }
    }

    /// POSTs JSON to one of the server's endpoints and returns the JSON answer.
    func post(endpoint: String, root: Bool, body: JSONValue) async throws -> JSONValue {
        let base = root ? configuration.rootURL : configuration.baseURL
        return try await withRetries {
            var request = self.request(url: base + endpoint, body: Data(body.jsonString().utf8), stream: false)
            request.timeout = .seconds(60)
            let response = try await self.client.execute(request)
            try self.check(status: response.status, headers: response.headers, body: response.body)
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
            return try await withRetries {
                var request = HTTPRequest.get(url, headers: self.authorizationHeaders)
                request.connectTimeout = self.configuration.connectTimeout
                request.timeout = min(.seconds(30), self.configuration.requestTimeout)
                request.idleTimeout = self.configuration.idleTimeout
                let response = try await self.client.execute(request)
                guard response.isSuccess else { return nil }
                return try? JSONValue(parsing: Array(response.body))
            }
        } catch let error as ModelServerError where error == .unreachable {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return nil
        }
    }

    private func request(url: String, body: Data, stream: Bool) -> HTTPRequest {
        var request = HTTPRequest.postJSON(
            url, body: body, headers: authorizationHeaders, accept: stream ? "text/event-stream" : "application/json")
        request.connectTimeout = configuration.connectTimeout
        return request
    }

    private var authorizationHeaders: HTTPHeaders {
        var headers: HTTPHeaders = [:]
        if let key = configuration.apiKey { headers.add(name: "Authorization", value: "Bearer \(key)") }
        return headers
    }

    // MARK: - Retries

    /// Runs `attempt`, retrying server errors, resets and timeouts with exponential backoff; maps the final
    /// failure to a Parley error.
    private func withRetries<T: Sendable>(_ attempt: @Sendable () async throws -> T) async throws -> T {
        var delay = configuration.retryDelay
        var tries = 0
        while true {
            do {
                return try await attempt()
            } catch {
                let mapped = map(error)
                tries += 1
                guard tries <= configuration.maximumRetries, isRetryable(mapped) else { throw mapped }
                try await Task.sleep(for: delay)
                delay *= 2
            }
        }
    }

    private func isRetryable(_ error: any Error) -> Bool {
        if let error = error as? ModelServerError { return error.isRetryable }
        if case LanguageModelError.timeout = error { return true }
        return false
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

    /// Throws the error a non-2xx status means.
    func check(status: Int, headers: HTTPHeaders, body: Data) throws {
        guard !(200..<300).contains(status) else { return }
        let text = String(decoding: body, as: UTF8.self)
        let json = try? JSONValue(parsing: Array(body))
        let error = json?["error"]
        let message = error?["message"]?.stringValue ?? error?.stringValue ?? Self.excerpt(text)
        let url = configuration.baseURL
        switch status {
        case 400, 413, 422:
            if let overflow = Self.contextOverflow(error: error, message: message) { throw overflow }
            throw ModelServerError.badRequest.with(url: url, status: status, detail: message)
        case 401, 403:
            throw ModelServerError.unauthorized.with(url: url, status: status, detail: message)
        case 404:
            throw ModelServerError.notFound.with(url: url, status: status, detail: message)
        case 408:
            throw LanguageModelError.timeout(.init(debugDescription: "The server timed out: \(message)"))
        case 429:
            throw LanguageModelError.rateLimited(
                .init(
                    resetDate: Self.resetDate(headers),
                    debugDescription: "The server at \(url) is rate limiting: \(message)"))
        default:
            throw ModelServerError.serverError.with(url: url, status: status, detail: message)
        }
    }

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

    /// When to retry after a 429: `Retry-After` (seconds or an HTTP date), or OpenAI's
    /// `x-ratelimit-reset-requests` (`1s`, `6m0s`).
    static func resetDate(_ headers: HTTPHeaders, now: Date = Date()) -> Date? {
        if let value = headers["Retry-After"] {
            if let seconds = Double(value.trimmingCharacters(in: .whitespaces)) {
                return now.addingTimeInterval(seconds)
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
            return seconds > 0 ? now.addingTimeInterval(seconds) : nil
        }
        return nil
    }
}
