/// Feedback on a model's output, for `LanguageModelSession.logFeedbackAttachment(sentiment:issues:desiredOutput:)`.
///
/// ```swift
/// let data = session.logFeedbackAttachment(
///     sentiment: .negative,
///     issues: [LanguageModelFeedback.Issue(category: .incorrect, explanation: "Offered the quest item for sale.")],
///     desiredResponseText: "That amulet is not for sale.")
/// ```
public struct LanguageModelFeedback: Sendable {
    /// How the output felt overall.
    public enum Sentiment: String, Sendable, CaseIterable, Hashable, Codable {
        /// Good output.
        case positive
        /// Bad output.
        case negative
        /// Neither.
        case neutral
    }

    /// A problem with the output.
    public struct Issue: Sendable, Equatable {
        /// The kind of problem; Apple's eight categories.
        public enum Category: String, Sendable, CaseIterable, Hashable, Codable {
            /// The output did not help.
            case unhelpful
            /// The output was longer than it should be.
            case tooVerbose
            /// The output ignored the instructions.
            case didNotFollowInstructions
            /// The output was wrong.
            case incorrect
            /// The output showed a stereotype or bias.
            case stereotypeOrBias
            /// The output was suggestive or sexual.
            case suggestiveOrSexual
            /// The output was vulgar or offensive.
            case vulgarOrOffensive
            /// A guardrail blocked output it should have allowed.
            case triggeredGuardrailUnexpectedly
        }

        /// The kind of problem.
        public var category: Category
        /// What exactly was wrong, with the context a developer needs.
        public var explanation: String?

        /// Creates an issue.
        ///
        /// - Parameters:
        ///   - category: The kind of problem.
        ///   - explanation: What was wrong.
        public init(category: Category, explanation: String? = nil) {
            self.category = category
            self.explanation = explanation
        }
    }
}

/// Parley's version, recorded in feedback reports and recordings.
public enum ParleyVersion {
    /// The version of this build of Parley.
    public static let current = "0.1.0"
}
