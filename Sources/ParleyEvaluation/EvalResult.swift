import ContentPacks
import GameWorld
import NPCContract
import ParleyEngine

/// How one evaluation case went: every failed expectation, every check that could not apply, and what happened.
public struct EvalResult: Sendable, Equatable {
    /// One check that failed.
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        /// The check: `intent`, `rule`, `calls`, `noCalls`, `offer`, `state`, `says`, `saysNot`, `truth` (a false
        /// claim), `unaskedAction` (the NPC acted when the case asked for no action, see `EvalRunner`),
        /// `emptyReply` (the NPC said nothing), `turn` (the game reported a problem, such as a failed turn) or
        /// `before` (the game refused a command of the case's `before`; the line under test was not said).
        public var check: String
        /// What was expected.
        public var expected: String
        /// What happened.
        public var actual: String

        /// Creates a failure.
        ///
        /// - Parameters:
        ///   - check: The check's name.
        ///   - expected: What was expected.
        ///   - actual: What happened.
        public init(check: String, expected: String, actual: String) {
            self.check = check
            self.expected = expected
            self.actual = actual
        }

        /// `says: expected "25"; got "Sorry, friend, you've lost me."`.
        public var description: String { "\(check): expected \(expected); got \(actual)" }
    }

    /// One check that could not apply, so was neither passed nor failed.
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        /// The check: `intent` or `rule`.
        public var check: String
        /// Why it could not apply, for example `the model records no answering rule`.
        public var reason: String

        /// Creates a skipped check.
        ///
        /// - Parameters:
        ///   - check: The check's name.
        ///   - reason: Why it could not apply.
        public init(check: String, reason: String) {
            self.check = check
            self.reason = reason
        }

        /// `intent: skipped (the model records no answering rule)`.
        public var description: String { "\(check): skipped (\(reason))" }
    }

    /// The case.
    public var evalCase: EvalCase
    /// Every failed check, in the order of the case's `expect`; empty when the case passed.
    public var failures: [Failure]
    /// The checks that could not apply.
    public var skipped: [Skipped]
    /// What the NPC said in reply to the case's line.
    public var reply: String
    /// The dialogue rule that answered, when the model recorded one.
    public var rule: AnsweringRule?
    /// The tools called during the turn, in order.
    public var calls: [String]
    /// The false claims the claim check found in the reply; each also fails the case.
    public var falseClaims: [String]
    /// What the NPC did in the turn under test that the case did not ask for, in words (`offered: Mira Quickcoin
    /// offers 1 Brass Lantern for 25 gold.`, `gave 1 × Bread`); each also fails the case. See `EvalRunner` for what
    /// counts.
    public var unaskedActions: [String] = []
    /// The calls of the turn under test that the game refused because the line was spoken and heard too unsurely to
    /// act on (`TurnRecording.unclearSpeechRefusals`, `tool {arguments}`): actions held back, not taken, so not
    /// unasked actions. Empty unless the runner was given the line as heard (`EvalRunner.heard`).
    public var unclearSpeechRefusals: [String] = []
    /// Whether the NPC's reply to the case's line was empty or only whitespace, although the turn did not fail;
    /// it fails the case.
    public var emptyReply = false
    /// Whether the reply was a clarifying question: the rule that answered asks the player what they meant
    /// (`EvalRunner.isClarifyingQuestion(_:)`). Counted, not a failure: asking back is right when a line is unclear.
    public var clarifyingQuestion = false
    /// How the reply came to be, when a server played the NPC (`VoicedModel`).
    public var voicing: TurnVoicing?
    /// Milliseconds from the case's line to the reply's first words, when measured.
    public var firstWordsMilliseconds: Double?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - evalCase: The case.
    ///   - failures: The failed checks.
    ///   - skipped: The checks that could not apply.
    ///   - reply: What the NPC said.
    ///   - rule: The answering rule, if recorded.
    ///   - calls: The tools called.
    ///   - falseClaims: The false claims found.
    public init(
        evalCase: EvalCase, failures: [Failure], skipped: [Skipped] = [], reply: String = "",
        rule: AnsweringRule? = nil, calls: [String] = [], falseClaims: [String] = []
    ) {
        self.evalCase = evalCase
        self.failures = failures
        self.skipped = skipped
        self.reply = reply
        self.rule = rule
        self.calls = calls
        self.falseClaims = falseClaims
    }

    /// Whether every check that applied passed (a false claim is a failed check).
    public var passed: Bool { failures.isEmpty }
}
