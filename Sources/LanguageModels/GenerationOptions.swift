/// Options that control how a model generates its response.
///
/// `nil` means "the model's default" for every option. Pass options to `respond` or `streamResponse`; they are
/// recorded in the prompt entry of the transcript, so a saved conversation remembers how each turn was asked.
///
/// ```swift
/// let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 200)
/// let reply = try await session.respond(to: "Hello", options: options)
/// ```
public struct GenerationOptions: Sendable, Equatable {
    /// How the next token is chosen; `nil` for the model's default.
    public var sampling: SamplingMode?
    /// How random the choice is, from 0 (focused) to 1 (varied); `nil` for the model's default.
    public var temperature: Double?
    /// The most tokens the response may have. A longer response is cut short silently, without an error.
    public var maximumResponseTokens: Int?
    /// Whether the model may, must or must not call tools this turn; `nil` for `.allowed`, the default (Apple 27).
    public var toolCallingMode: ToolCallingMode?

    /// How the next token is chosen: Apple 27's name for `sampling`, the same value.
    public var samplingMode: SamplingMode? {
        get { sampling }
        set { sampling = newValue }
    }

    /// Creates generation options (Apple 26's form).
    ///
    /// - Parameters:
    ///   - sampling: How tokens are chosen (`.greedy` is deterministic).
    ///   - temperature: Randomness from 0 to 1.
    ///   - maximumResponseTokens: The response's length limit in tokens.
    public init(sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.sampling = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
    }

    /// Creates generation options (Apple 27's form).
    ///
    /// ```swift
    /// let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 80, toolCallingMode: .disallowed)
    /// ```
    ///
    /// - Parameters:
    ///   - samplingMode: How tokens are chosen (`.greedy` is deterministic).
    ///   - temperature: Randomness from 0 to 1.
    ///   - maximumResponseTokens: The response's length limit in tokens.
    ///   - toolCallingMode: Whether the model may, must or must not call tools.
    public init(
        samplingMode: SamplingMode?, temperature: Double? = nil, maximumResponseTokens: Int? = nil,
        toolCallingMode: ToolCallingMode? = nil
    ) {
        self.sampling = samplingMode
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.toolCallingMode = toolCallingMode
    }

    /// Whether the model may call tools in a turn (Apple 27).
    ///
    /// `.disallowed` sends the request without tools, so no backend can call one; `.required` asks the backend to call
    /// at least one (an OpenAI-compatible server gets `tool_choice: "required"`; the scripted model follows its rules
    /// and may answer without); `.allowed` leaves it to the model.
    public struct ToolCallingMode: Sendable, Hashable, CustomStringConvertible {
        /// The kinds of tool calling.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// The model decides.
            case allowed
            /// The model should call a tool.
            case required
            /// The model cannot call tools.
            case disallowed
        }

        /// The kind.
        public var kind: Kind

        /// The model decides whether to call tools (the default).
        public static var allowed: ToolCallingMode { ToolCallingMode(kind: .allowed) }
        /// The model should call at least one tool.
        public static var required: ToolCallingMode { ToolCallingMode(kind: .required) }
        /// The model cannot call tools: none are offered.
        public static var disallowed: ToolCallingMode { ToolCallingMode(kind: .disallowed) }

        /// `allowed`, `required` or `disallowed`.
        public var description: String { kind.rawValue }
    }

    /// How a model chooses each token.
    public struct SamplingMode: Sendable, Equatable, CustomStringConvertible {
        /// The kinds of sampling.
        enum Kind: Sendable, Equatable {
            case greedy
            case topK(Int, seed: UInt64?)
            case nucleus(Double, seed: UInt64?)
        }

        let kind: Kind

        /// Always the most likely token: the same input gives the same output.
        public static var greedy: SamplingMode { SamplingMode(kind: .greedy) }

        /// A random choice among the `k` most likely tokens.
        ///
        /// - Parameters:
        ///   - k: How many of the most likely tokens to choose from.
        ///   - seed: A seed that makes the choice repeatable where the backend supports it.
        public static func random(top k: Int, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(kind: .topK(k, seed: seed))
        }

        /// A random choice among the most likely tokens whose probabilities add up to `probabilityThreshold`.
        ///
        /// - Parameters:
        ///   - probabilityThreshold: The cumulative probability, from 0 to 1 (nucleus or top-p sampling).
        ///   - seed: A seed that makes the choice repeatable where the backend supports it.
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(kind: .nucleus(probabilityThreshold, seed: seed))
        }

        /// The `k` of top-k sampling, if this is top-k sampling.
        public var topK: Int? {
            if case .topK(let k, _) = kind { return k }
            return nil
        }

        /// The threshold of probability-threshold sampling, if this is that mode.
        public var probabilityThreshold: Double? {
            if case .nucleus(let p, _) = kind { return p }
            return nil
        }

        /// The seed of a random mode, if one was given.
        public var seed: UInt64? {
            switch kind {
            case .greedy: nil
            case .topK(_, let seed), .nucleus(_, let seed): seed
            }
        }

        /// Whether this is greedy sampling.
        public var isGreedy: Bool { kind == .greedy }

        /// `greedy`, `random(top: 40, seed: 7)` or `random(probabilityThreshold: 0.9)`.
        public var description: String {
            let seedText = seed.map { ", seed: \($0)" } ?? ""
            switch kind {
            case .greedy: return "greedy"
            case .topK(let k, _): return "random(top: \(k)\(seedText))"
            case .nucleus(let p, _): return "random(probabilityThreshold: \(p)\(seedText))"
            }
        }
    }
}
