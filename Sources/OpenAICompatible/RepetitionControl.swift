import ParleyJSON

/// How the server is asked not to repeat itself: OpenAI's penalties, and llama-server's own samplers.
///
/// ```swift
/// var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: "http://127.0.0.1:8080/v1")
/// configuration.repetition.repeatPenalty = 1.2   // stronger than the standard 1.1
/// configuration.repetition = .off                  // the server's own defaults
/// ```
///
/// Sent on requests for text (plain replies, also with tools, and replies through constrained tool calling), never
/// on guided generation with a schema. `frequencyPenalty` and `presencePenalty` are standard OpenAI fields and are
/// always sent; the other five are llama-server's samplers, sent only when `sendsServerExtensions` is on and the
/// server's `/props` lists them among its generation settings (servers that do not know a field reject it or
/// ignore it). A `nil` value is not sent, so the server's default applies. `extraBody` overrides any of them.
public struct RepetitionControl: Sendable, Equatable {
    /// `frequency_penalty`: lowers a token's odds by how often it already appears (OpenAI: -2 to 2).
    public var frequencyPenalty: Double?
    /// `presence_penalty`: lowers the odds of any token that already appears (OpenAI: -2 to 2).
    public var presencePenalty: Double?
    /// `repeat_penalty` (llama-server): divides the odds of tokens among the last `repeatLastN`; 1 is off.
    public var repeatPenalty: Double?
    /// `repeat_last_n` (llama-server): how many recent tokens `repeatPenalty` looks at.
    public var repeatLastN: Int?
    /// `dry_multiplier` (llama-server): the strength of the DRY sampler, which penalises extending a sequence
    /// that already occurred; 0 is off.
    public var dryMultiplier: Double?
    /// `dry_base` (llama-server): how fast the DRY penalty grows with the length of the repeated sequence.
    public var dryBase: Double?
    /// `dry_allowed_length` (llama-server): the longest repeated sequence DRY leaves alone.
    public var dryAllowedLength: Int?

    /// Creates repetition settings; each one left out takes its `standard` value. Pass `nil` to leave a field out of
    /// the request.
    ///
    /// - Parameters:
    ///   - frequencyPenalty: `frequency_penalty`, standard 0.3.
    ///   - presencePenalty: `presence_penalty`, standard 0.2.
    ///   - repeatPenalty: `repeat_penalty`, standard 1.1.
    ///   - repeatLastN: `repeat_last_n`, standard 64.
    ///   - dryMultiplier: `dry_multiplier`, standard 0.8.
    ///   - dryBase: `dry_base`, standard 1.75.
    ///   - dryAllowedLength: `dry_allowed_length`, standard 2.
    public init(
        frequencyPenalty: Double? = 0.3, presencePenalty: Double? = 0.2, repeatPenalty: Double? = 1.1,
        repeatLastN: Int? = 64, dryMultiplier: Double? = 0.8, dryBase: Double? = 1.75, dryAllowedLength: Int? = 2
    ) {
        self.frequencyPenalty = frequencyPenalty
        self.presencePenalty = presencePenalty
        self.repeatPenalty = repeatPenalty
        self.repeatLastN = repeatLastN
        self.dryMultiplier = dryMultiplier
        self.dryBase = dryBase
        self.dryAllowedLength = dryAllowedLength
    }

    /// The default: mild penalties, llama-server's repeat penalty and DRY sampler on.
    public static let standard = RepetitionControl()

    /// Nothing sent: the server's own defaults.
    public static let off = RepetitionControl(
        frequencyPenalty: nil, presencePenalty: nil, repeatPenalty: nil, repeatLastN: nil, dryMultiplier: nil,
        dryBase: nil, dryAllowedLength: nil)

    /// The standard OpenAI fields, in the order they are sent.
    var penaltyFields: [(String, JSONValue)] {
        [
            ("frequency_penalty", frequencyPenalty.map { JSONValue.double($0) }),
            ("presence_penalty", presencePenalty.map { JSONValue.double($0) }),
        ].compactMap { key, value in value.map { (key, $0) } }
    }

    /// llama-server's sampler fields, in the order they are sent.
    var samplerFields: [(String, JSONValue)] {
        [
            ("repeat_penalty", repeatPenalty.map { JSONValue.double($0) }),
            ("repeat_last_n", repeatLastN.map { JSONValue.integer($0) }),
            ("dry_multiplier", dryMultiplier.map { JSONValue.double($0) }),
            ("dry_base", dryBase.map { JSONValue.double($0) }),
            ("dry_allowed_length", dryAllowedLength.map { JSONValue.integer($0) }),
        ].compactMap { key, value in value.map { (key, $0) } }
    }
}
