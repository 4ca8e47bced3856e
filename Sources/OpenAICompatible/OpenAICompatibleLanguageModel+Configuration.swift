import Foundation
import ParleyJSON

extension OpenAICompatibleLanguageModel {
    /// How to reach and use an OpenAI-compatible server.
    ///
    /// ```swift
    /// var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: "http://127.0.0.1:8080/v1")
    /// configuration.model = "llama3.2"              // Ollama and OpenAI need a model name
    /// configuration.extraBody = ["repeat_penalty": 1.1]
    /// ```
    ///
    /// The API key is never printed: `description` and `dump` leave it out.
    public struct Configuration: Sendable, CustomStringConvertible, CustomReflectable {
        /// The server's OpenAI-compatible base URL, ending in `/v1`: `http://127.0.0.1:8080/v1` for llama-server,
        /// `http://127.0.0.1:11434/v1` for Ollama.
        public var baseURL: String
        /// The model name sent in each request; `nil` leaves it out (llama-server serves one model).
        public var model: String?
        /// The API key, sent as `Authorization: Bearer …`; `nil` for none. Defaults to `OPENAI_API_KEY`.
        public var apiKey: String?
        /// The context window in tokens; `nil` reads it from the server (llama-server's `/props`, or
        /// `/v1/models` metadata). When neither says, requests are not checked before sending and the server's
        /// own context error is reported as `LanguageModelError.contextSizeExceeded`.
        public var contextSize: Int?
        /// How tools are called; `.automatic` asks the server.
        public var toolCalling: ToolCallingMode
        /// Send llama.cpp's and vLLM's extensions (`top_k`, `cache_prompt`); turn off for OpenAI itself, which
        /// rejects unknown fields.
        public var sendsServerExtensions: Bool
        /// Fields added to every request body, overriding Parley's (for example `{"repeat_penalty": 1.1}`).
        public var extraBody: JSONObject
        /// The model version recorded in transcripts and feedback; `nil` uses what the server reports (its
        /// build and model file) or `unknown`.
        public var version: String?
        /// The longest wait for a connection.
        public var connectTimeout: Duration
        /// For streamed responses: the longest wait without a byte from the server.
        public var idleTimeout: Duration
        /// For whole responses: the longest a request may take.
        public var requestTimeout: Duration
        /// How many times a request that failed with a server error (5xx), a reset connection or a timeout is
        /// sent again, with exponential backoff from `retryDelay`.
        public var maximumRetries: Int
        /// The first retry's delay; each further retry waits twice as long.
        public var retryDelay: Duration
        /// The longest wait a 429's `Retry-After` may ask for when the caller set no deadline (see
        /// `ModelServerContext`); a longer one fails at once with `LanguageModelError.rateLimited`.
        public var maximumRateLimitWait: Duration
        /// The most bytes a reply may have when the request sets no `maximumResponseTokens`, and the cap even
        /// when it does; otherwise a reply may take 32 bytes a token (at least 64 KiB). A larger reply is cut
        /// off and the request fails with `ModelServerError.responseTooLarge`. Default 8 MiB.
        public var maximumReplyBytes: Int

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - baseURL: The server's `/v1` URL.
        ///   - model: The model name, if the server needs one.
        ///   - apiKey: The API key; by default the `OPENAI_API_KEY` environment variable, if set.
        ///   - contextSize: The context window, or `nil` to ask the server.
        ///   - toolCalling: How tools are called.
        public init(
            baseURL: String, model: String? = nil,
            apiKey: String? = ProcessInfo.processInfo.environment["OPENAI_API_KEY"], contextSize: Int? = nil,
            toolCalling: ToolCallingMode = .automatic
        ) {
            self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
            self.model = model
            self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
            self.contextSize = contextSize
            self.toolCalling = toolCalling
            self.sendsServerExtensions = true
            self.extraBody = JSONObject()
            self.version = nil
            self.connectTimeout = .seconds(10)
            self.idleTimeout = .seconds(120)
            self.requestTimeout = .seconds(600)
            self.maximumRetries = 2
            self.retryDelay = .milliseconds(500)
            self.maximumRateLimitWait = .seconds(60)
            self.maximumReplyBytes = 8 << 20
        }

        /// The server's root, where llama-server's own endpoints (`/props`, `/tokenize`, `/health`) live.
        var rootURL: String {
            baseURL.hasSuffix("/v1") ? String(baseURL.dropLast(3)) : baseURL
        }

        /// The URL, model and tool calling, without the API key.
        public var description: String {
            "\(baseURL) model: \(model ?? "(server default)") tools: \(toolCalling) key: \(apiKey == nil ? "none" : "set")"
        }

        /// A mirror without the API key.
        public var customMirror: Mirror {
            Mirror(
                self,
                children: [
                    "baseURL": baseURL, "model": model as Any, "apiKey": apiKey == nil ? "none" : "(set, hidden)",
                    "contextSize": contextSize as Any, "toolCalling": toolCalling,
                ])
        }
    }

    /// What the server says about itself.
    public struct ServerInfo: Sendable, Equatable {
        /// The context window per request, in tokens, if the server said (llama-server: per slot).
        public var contextSize: Int?
        /// Whether the model's chat template supports tool calls, if the server said.
        public var supportsToolCalls: Bool?
        /// The model's name as the server reports it.
        public var modelName: String?
        /// The server's build or version, if it said.
        public var build: String?
        /// Whether the server has llama-server's `/tokenize` and `/apply-template`, for exact token counts.
        public var canTokenize: Bool
    }
}
