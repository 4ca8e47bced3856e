import GameWorld
import LanguageModels

/// What a call of one of the game's own actions (`GameAction`, declared in `actions.json`) answers: the game's
/// output, its error, that it did not answer, that it was told, or why the call was refused.
///
/// ```json
/// {"status": "answered", "output": {"opened": true, "gate": "North Gate"}}
/// {"status": "failed", "error": "The winch is jammed."}
/// {"status": "unanswered", "message": "The game did not answer within 5 s. Go on without its answer."}
/// {"status": "told", "message": "The game was told. It does not answer this action."}
/// {"status": "refused", "reasons": ["The arguments do not fit openGate: $.gate: is \"south\", expected one of \"north\"."]}
/// {"status": "refused", "reasons": ["The player's line was spoken, and ..."],
///  "refusals": [{"kind": "unclearSpeech", "heard": "open the gate"}]}
/// ```
///
/// `output` is what the game answered, as it answered it (any JSON); the other members are left out when empty.
/// `refusals` gives the reasons as data (`RefusalReason.details`) when the engine refused for a reason it types (a
/// spoken line heard too unsurely to act on); a refusal for arguments that do not fit has only `reasons`.
public struct GameActionResult: Sendable, Equatable, ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
    /// How a call of a game's action ended.
    public enum Status: String, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
        /// The game answered; `output` is its answer.
        case answered
        /// The game answered with an error; `error` says what.
        case failed
        /// The game did not answer within the action's time limit, or no game listens for actions.
        case unanswered
        /// The action does not await an answer: the game was told, and the NPC went on at once.
        case told
        /// The call's arguments do not fit the action's schema (or the NPC may not take it): the game never saw it.
        case refused

        /// The status as written in the JSON.
        public var description: String { rawValue }

        /// The outcome a dialogue rule's replies answer for it.
        public var outcome: DialogueOutcome {
            switch self {
            case .answered: .answered
            case .failed: .failed
            case .unanswered: .unanswered
            case .told: .told
            case .refused: .refused
            }
        }
    }

    /// How the call ended.
    public var status: Status
    /// The game's answer (`answered`).
    public var output: GeneratedContent?
    /// The game's error (`failed`).
    public var error: String?
    /// What happened, in words for the model (`unanswered`, `told`).
    public var message: String?
    /// Why the call was refused, in words (`refused`).
    public var reasons: [String]
    /// The reasons as data, in the order of `reasons`, when the engine gave them typed
    /// (``refused(because:)``); empty otherwise.
    public var refusals: [RefusalReason] = []

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - status: How the call ended.
    ///   - output: The game's answer.
    ///   - error: The game's error.
    ///   - message: What happened, in words.
    ///   - reasons: Why the call was refused.
    public init(
        status: Status, output: GeneratedContent? = nil, error: String? = nil, message: String? = nil,
        reasons: [String] = []
    ) {
        self.status = status
        self.output = output
        self.error = error
        self.message = message
        self.reasons = reasons
    }

    /// The game answered with `output`.
    ///
    /// - Parameter output: The answer.
    /// - Returns: An `answered` result.
    public static func answered(_ output: GeneratedContent) -> GameActionResult {
        GameActionResult(status: .answered, output: output)
    }

    /// The game answered with an error.
    ///
    /// - Parameter error: What went wrong, in the game's words.
    /// - Returns: A `failed` result.
    public static func failed(_ error: String) -> GameActionResult { GameActionResult(status: .failed, error: error) }

    /// The game did not answer within the time limit.
    ///
    /// - Parameter seconds: The time limit, for the message; `nil` when nothing listens for the action.
    /// - Returns: An `unanswered` result.
    public static func unanswered(after seconds: Double?) -> GameActionResult {
        let within = seconds.map { " within \(Self.format($0)) s" } ?? ""
        return GameActionResult(
            status: .unanswered, message: "The game did not answer\(within). Go on without its answer.")
    }

    /// Seconds as written in messages: `5`, `0.25`.
    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    /// The game was told of an action that does not await its answer.
    public static let told = GameActionResult(
        status: .told, message: "The game was told. It does not answer this action.")

    /// The call was refused before the game saw it.
    ///
    /// - Parameter reasons: Why, in words.
    /// - Returns: A `refused` result.
    public static func refused(_ reasons: [String]) -> GameActionResult {
        GameActionResult(status: .refused, reasons: reasons)
    }

    /// The call was refused before the game saw it, for reasons the engine types (`RefusalReason.unclearSpeech`):
    /// `reasons` holds their sentences, `refusals` the reasons themselves.
    ///
    /// - Parameter reasons: Why.
    /// - Returns: A `refused` result.
    public static func refused(because reasons: [RefusalReason]) -> GameActionResult {
        var result = GameActionResult(status: .refused, reasons: reasons.map(\.message))
        result.refusals = reasons
        return result
    }

    // MARK: - JSON

    /// `{"status", "output"?, "error"?, "message"?, "reasons"?, "refusals"?}`.
    public var generatedContent: GeneratedContent {
        var builder = ContentBuilder()
        builder.add("status", status.rawValue)
        builder.add("output", output)
        builder.add("error", error)
        builder.add("message", message)
        if !reasons.isEmpty { builder.add("reasons", elements: reasons) }
        if !refusals.isEmpty { builder.add("refusals", elements: refusals.map(\.details)) }
        return builder.content
    }

    /// Reads a result.
    ///
    /// - Parameter content: A game action's output.
    /// - Throws: `GeneratedContent.ParsingError` when `status` is missing or unknown, or a member has the wrong type.
    public init(_ content: GeneratedContent) throws {
        let reader = ContentReader(content, reading: GameActionResult.self)
        let statusReader = try reader.required("status", "String")
        let name = try statusReader.string()
        guard let status = Status(rawValue: name) else {
            throw statusReader.error(
                "expected one of \(Status.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(name)\"")
        }
        self.status = status
        output = try reader.optional("output")?.content
        error = try reader.optionalString("error")
        message = try reader.optionalString("message")
        reasons = try reader.optional("reasons")?.elements().map { try $0.string() } ?? []
        // Typed reasons, each with its sentence; details that do not read stay out (the sentences say it all).
        let details = (try? reader.optional("refusals")?.elements()) ?? []
        refusals = zip(details, reasons).map { RefusalReason(details: $0, message: $1) }
    }

    /// Reads a transcript's tool output as a game action's: its structured segment, when it is one.
    ///
    /// - Parameter output: The output.
    /// - Returns: `nil` when the output is not a game action's result (an NPC tool's, or plain text).
    public init?(_ output: Transcript.ToolOutput) {
        guard NPCTool(rawValue: output.toolName) == nil else { return nil }
        for segment in output.segments {
            if case .structure(let structure) = segment {
                guard let read = try? GameActionResult(structure.content) else { return nil }
                self = read
                return
            }
        }
        return nil
    }
}
