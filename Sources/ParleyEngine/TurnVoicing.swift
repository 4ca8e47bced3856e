import LanguageModels
import ParleyJSON

/// How a turn's line came to be when a language-model server plays the NPC (`VoicedModel`): said by the server, or
/// by the planner because the server could not say it in time or truthfully. Kept in the turn's recording
/// (`TurnRecording.voicing`) and, as `voicing`, in the turn's annotations of the annotated transcript, so
/// `parley replay` and the evaluation can compare models by it.
public struct TurnVoicing: Sendable, Equatable {
    /// The key of a turn's voicing in its annotations (`AnnotatedTranscript.turnAnnotations`), whose value is
    /// `summary`.
    public static let annotationKey = AnnotationKey.voicing.rawValue

    /// What happened.
    public enum Outcome: String, Sendable, CaseIterable {
        /// The server's first line was said (grounded: it kept every fact and passed the checks).
        case voiced
        /// The server's first line failed the checks; its second was said.
        case regenerated
        /// The server's first sentences were said, then the rest of the planned line (see `reason`: a sentence
        /// failed the checks, the server failed or was late, or its line still owed a fact at its end).
        case partlyVoiced
        /// The planner's line was said instead of the server's (see `reason`).
        case fellBack
    }

    /// Why the planner's line was said.
    public enum FallbackReason: String, Sendable, CaseIterable {
        /// The server's words did not come within the first-words deadline.
        case deadline
        /// Every voiced line failed the checks (a fact dropped or changed, a false claim, an invented name).
        case check
        /// The server failed (down, an error, a broken stream).
        case error
        /// The game asked for the planner (an evaluation's setup turns).
        case planned
    }

    /// The mode the turn ran in.
    public var mode: VoiceMode
    /// What happened.
    public var outcome: Outcome
    /// Why the planner's line (or the rest of it, for `partlyVoiced`) was said.
    public var reason: FallbackReason?
    /// The planned line (grounded mode): what the planner would have said, and what the voiced line had to keep.
    public var planned: String?
    /// What was wrong with each rejected voiced line, in order (grounded mode), or with the server's answer.
    public var problems: [String]
    /// How many times the server was asked for the line.
    public var attempts: Int
    /// The tokens the server generated for the line, over all attempts, when it reported them.
    public var completionTokens: Int?
    /// The planner's id and version, as `id@version`.
    public var planner: String

    /// Creates a voicing record.
    ///
    /// - Parameters:
    ///   - mode: The mode.
    ///   - outcome: What happened.
    ///   - reason: Why the planner's line was said, for `fellBack`.
    ///   - planned: The planned line.
    ///   - problems: What was wrong with each rejected line.
    ///   - attempts: How many times the server was asked.
    ///   - completionTokens: The tokens the server generated.
    ///   - planner: The planner's `id@version`.
    public init(
        mode: VoiceMode, outcome: Outcome, reason: FallbackReason? = nil, planned: String? = nil,
        problems: [String] = [], attempts: Int = 0, completionTokens: Int? = nil, planner: String
    ) {
        self.mode = mode
        self.outcome = outcome
        self.reason = reason
        self.planned = planned
        self.problems = problems
        self.attempts = attempts
        self.completionTokens = completionTokens
        self.planner = planner
    }

    /// The outcome as one word or two, as in the annotated transcript: `voiced`, `regenerated`,
    /// `fellBack:deadline`.
    public var summary: String {
        outcome.rawValue + (reason.map { ":" + $0.rawValue } ?? "")
    }

    /// Whether the player heard the server's words.
    public var isVoiced: Bool { outcome != .fellBack }

    /// The record as JSON (see docs/recording-format.md).
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["mode"] = .string(mode.rawValue)
        object["outcome"] = .string(outcome.rawValue)
        object["reason"] = reason.map { .string($0.rawValue) } ?? .null
        object["planned"] = planned.map(JSONValue.string) ?? .null
        object["problems"] = .array(problems.map(JSONValue.string))
        object["attempts"] = .integer(attempts)
        object["completionTokens"] = completionTokens.map { .integer($0) } ?? .null
        object["planner"] = .string(planner)
        return .object(object)
    }

    /// Reads a record from its JSON; `nil` when it is not one (an unknown mode or outcome).
    ///
    /// - Parameter value: The JSON, as `jsonValue` wrote it.
    public init?(jsonValue value: JSONValue) {
        guard let mode = value["mode"]?.stringValue.flatMap(VoiceMode.init(rawValue:)),
            let outcome = value["outcome"]?.stringValue.flatMap(Outcome.init(rawValue:))
        else { return nil }
        self.init(
            mode: mode, outcome: outcome, reason: value["reason"]?.stringValue.flatMap(FallbackReason.init(rawValue:)),
            planned: value["planned"]?.stringValue,
            problems: value["problems"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            attempts: max(value["attempts"]?.saturatingIntValue ?? 0, 0),
            completionTokens: value["completionTokens"]?.saturatingIntValue.map { max($0, 0) },
            planner: value["planner"]?.stringValue ?? "")
    }
}
