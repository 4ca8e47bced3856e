import Foundation
import LanguageModels
import ParleyBasics
import ParleyJSON

extension OpenAICompatibleLanguageModel {
    /// How to reach and use an OpenAI-compatible server.
    ///
    /// ```swift
    /// var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: "http://127.0.0.1:8080/v1")
    /// configuration.model = "llama3.2"              // Ollama and OpenAI need a model name
    /// configuration.maximumSentences = 3            // short replies (loops are cut anyway)
    /// configuration.extraBody = ["mirostat": 2]     // any field the server takes
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
        /// The most sentences a reply keeps; `nil` (the default) for no limit, and values below 1 count as 1.
        ///
        /// A sentence ends at `.`, `!`, `?` or `…` followed by whitespace or the end ("2.5" does not end one). The
        /// reply is cut after that many sentences, as it streams: reading stops (unless native tools were offered,
        /// as a tool call may follow the text), and the turn ends normally with the kept text. A request without
        /// `maximumResponseTokens` then asks for `maximumSentences * tokensPerSentence` tokens (`max_tokens`). Applies to text replies (also replies through constrained tool calling), never to
        /// tool calls or guided generation with a schema. Per NPC: `replying(inAtMost:)`.
        public var maximumSentences: Int?
        /// Whether a reply that starts looping is cut where the loop starts (default `true`): a sentence that repeats
        /// an earlier one of the same reply is dropped with everything after it, and a run of six or more words
        /// repeated right after itself, or one word four times in a row, is cut after its first occurrence. What
        /// came before is kept, and the turn ends normally. Applies where `maximumSentences` does.
        public var cutsLoops: Bool
        /// The tokens allowed per sentence of `maximumSentences` when the request sets no `maximumResponseTokens`
        /// (default 40).
        public var tokensPerSentence: Int
        /// How the server is asked not to repeat itself (default `.standard`); see `RepetitionControl` for what is
        /// sent when.
        public var repetition: RepetitionControl
        /// The `stop` strings of requests for plain text (those without `response_format`): `nil` (the default)
        /// for lines that mean the model has started writing the other side of the chat (`"\nPlayer:"`,
        /// `"\nUser:"`, `"\nYou:"`, `"<|im_end|>"`, `"<|im_start|>"`), `[]` for none. A server not known to be
        /// llama-server or Ollama gets at most the first 4, OpenAI's limit.
        public var stop: [String]?
        /// Whether copies with a cache key (`keepingCache(as:)`) keep their KV caches in llama-server's slot files
        /// when the server was started with `--slot-save-path` (default `true`). Other servers, and llama-server
        /// without the option, are used exactly as without it: see docs/model-servers.md, "Caches".
        public var keepsSlotCaches: Bool
        /// The longest a slot save or restore may take before it counts as failed (default 10 s). A failed one costs
        /// speed only: the request then processes its whole prompt.
        public var slotCacheTimeout: Duration
        /// Whether `prewarm(for:)` asks llama-server to process a prompt ahead of the request that will follow it
        /// (default `true`); other servers get nothing.
        public var prewarms: Bool

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
            self.maximumSentences = nil
            self.cutsLoops = true
            self.tokensPerSentence = 40
            self.repetition = .standard
            self.stop = nil
            self.keepsSlotCaches = true
            self.slotCacheTimeout = .seconds(10)
            self.prewarms = true
        }

        /// The `stop` strings sent when `stop` is `nil`: lines that mean the model has started writing the other
        /// side of the chat, and ChatML's turn markers (SmolLM2, Qwen) should the template not stop on them.
        public static let defaultStopSequences = ["\nPlayer:", "\nUser:", "\nYou:", "<|im_end|>", "<|im_start|>"]

        /// The most `stop` strings OpenAI accepts; servers not known to take more get this many.
        static let portableStopCount = 4

        /// The `stop` strings for a server of this kind.
        func stopSequences(for kind: ServerKind) -> [String] {
            let sequences = stop ?? Self.defaultStopSequences
            switch kind {
            case .llamaServer, .ollama: return sequences
            case .generic: return Array(sequences.prefix(Self.portableStopCount))
            }
        }

        /// The reply's rules for a request: none for guided generation with a schema, whose JSON must not be cut.
        func replyRules(for request: GenerationRequest) -> ReplyShaper.Rules? {
            guard request.schema == nil else { return nil }
            let rules = ReplyShaper.Rules(maximumSentences: maximumSentences, cutsLoops: cutsLoops)
            return rules.cutsNothing ? nil : rules
        }

        /// The `max_tokens` the sentence budget allows, for a request that sets none itself.
        func budgetTokens(for request: GenerationRequest) -> Int? {
            guard request.schema == nil, let sentences = maximumSentences else { return nil }
            return max(sentences, 1).saturatingMultiplied(by: max(tokensPerSentence, 1))
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

    /// Which kind of server answers, as far as its answers show.
    public enum ServerKind: String, Sendable, Equatable, CustomStringConvertible {
        /// llama.cpp's llama-server: it has `/props`.
        case llamaServer
        /// Ollama: its `/v1/models` names models owned by `library` (or it listens on Ollama's port, 11434).
        case ollama
        /// Any other server (OpenAI, vLLM, LM Studio, a proxy).
        case generic

        /// The kind's name.
        public var description: String { rawValue }
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
        /// Which kind of server it is.
        public var kind: ServerKind = .generic
        /// The generation settings llama-server's `/props` lists (`default_generation_settings.params`, or
        /// `default_generation_settings` on older builds), such as `repeat_penalty` and `dry_multiplier`: the
        /// samplers of `RepetitionControl` are sent only when listed here. Empty for other servers.
        public var generationSettings: Set<String> = []
        /// How many slots llama-server has (`/props` `total_slots`, its `--parallel`); `nil` for other servers.
        public var slotCount: Int?
    }
}
