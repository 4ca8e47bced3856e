import Foundation

extension LanguageModelSession {
    /// Makes a feedback report on the session's output, to attach to a bug report.
    ///
    /// The report is a self-contained JSON document (see `FeedbackAttachment` and `docs/feedback-format.md`): the
    /// sentiment, the issues, the desired output, the whole transcript in Apple's format, rolled-back entries, the
    /// model's id and version, Parley's version and the time. Save it as a `.json` file.
    ///
    /// - Parameters:
    ///   - sentiment: How the output felt overall.
    ///   - issues: What was wrong.
    ///   - desiredOutput: The entry the model should have produced.
    /// - Returns: The report's JSON.
    @discardableResult
    public func logFeedbackAttachment(
        sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
        desiredOutput: Transcript.Entry? = nil
    ) -> Data {
        feedbackAttachment(sentiment: sentiment, issues: issues, desiredOutput: desiredOutput).jsonData()
    }

    /// Makes a feedback report with the text the model should have answered.
    ///
    /// - Parameters:
    ///   - sentiment: How the output felt overall.
    ///   - issues: What was wrong.
    ///   - desiredResponseText: The answer the model should have given.
    /// - Returns: The report's JSON.
    @discardableResult
    public func logFeedbackAttachment(
        sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
        desiredResponseText: String?
    ) -> Data {
        let desired = desiredResponseText.map {
            Transcript.Entry.response(.init(segments: [.text(.init(content: $0))]))
        }
        return logFeedbackAttachment(sentiment: sentiment, issues: issues, desiredOutput: desired)
    }

    /// Makes a feedback report with the structured content the model should have answered.
    ///
    /// - Parameters:
    ///   - sentiment: How the output felt overall.
    ///   - issues: What was wrong.
    ///   - desiredResponseContent: The content the model should have generated.
    /// - Returns: The report's JSON.
    @discardableResult
    public func logFeedbackAttachment(
        sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
        desiredResponseContent: (any ConvertibleToGeneratedContent)?
    ) -> Data {
        let desired = desiredResponseContent.map { content in
            Transcript.Entry.response(
                .init(segments: [.structure(.init(source: "\(type(of: content))", content: content.generatedContent))]))
        }
        return logFeedbackAttachment(sentiment: sentiment, issues: issues, desiredOutput: desired)
    }

    /// Makes a feedback report as a value, with the app's context, for apps that store or inspect reports.
    ///
    /// - Parameters:
    ///   - sentiment: How the output felt overall.
    ///   - issues: What was wrong.
    ///   - desiredOutput: The entry the model should have produced.
    ///   - context: The app's context, for example the player and the place.
    /// - Returns: The report; `jsonData()` gives the document `logFeedbackAttachment` returns.
    public func feedbackAttachment(
        sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
        desiredOutput: Transcript.Entry? = nil, context: [String: String] = [:]
    ) -> FeedbackAttachment {
        FeedbackAttachment(
            sentiment: sentiment, issues: issues, desiredOutput: desiredOutput, transcript: transcript,
            rolledBackEntries: rolledBackEntries, modelID: model.id, modelVersion: model.version, context: context)
    }
}
