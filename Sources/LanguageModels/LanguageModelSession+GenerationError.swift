// Apple's 26.x error type, kept so that code written for it ports, and its conversions to and from the errors
// sessions throw by default (Apple 27's `LanguageModelError`, `LanguageModelSession.Error`,
// `GeneratedContent.ParsingError`).
//
// By default everything that names `GenerationError` is itself deprecated, so the package builds without warnings
// while a caller's use of it warns, as on Apple platforms with Xcode 27. Built with the package trait
// `FoundationModels26Errors` (an Xcode 26 app's errors), sessions throw `GenerationError` (see
// `LanguageModelSession.thrown(_:)`) and nothing here is deprecated.

import Foundation

extension LanguageModelSession {
    /// An error a session threw in Apple's FoundationModels 26.x; with Apple 27, sessions throw `LanguageModelError`.
    ///
    /// By default Parley's sessions throw Apple 27's types and never this one, which is deprecated: code written for
    /// Apple's 26.x framework compiles, and ports with one line: convert what was caught.
    ///
    /// ```swift
    /// // Apple 26.x:
    /// } catch let error as LanguageModelSession.GenerationError {
    ///     handle(error)
    /// }
    /// // Parley (and Apple 27):
    /// } catch {
    ///     if let error = LanguageModelSession.GenerationError(error) { handle(error) }
    /// }
    /// ```
    ///
    /// Or keep the 26.x code as it is: with the package trait `FoundationModels26Errors` (in the app's
    /// `Package.swift`: `.package(url: ..., traits: ["FoundationModels26Errors"])`), sessions throw this type, as
    /// they do for an app built with Xcode 26, for every error that has a 26.x form, and it is not deprecated.
    ///
    /// Converting back (`LanguageModelError(_:)`, `LanguageModelSession.Error(_:)`,
    /// `GeneratedContent.ParsingError(_:)`) gives the error that was converted, with all its facts.
    #if !FoundationModels26Errors
    @available(*, deprecated, message: "Sessions throw LanguageModelError (Apple 27); convert with GenerationError(_:)")
    #endif
    public enum GenerationError: Swift.Error, Sendable, LocalizedError, CustomStringConvertible {
        /// The request does not fit the model's context window (now `LanguageModelError.contextSizeExceeded`).
        case exceededContextWindowSize(Context)
        /// The model's assets are not available (Parley: the backend is unavailable; see `availability`).
        case assetsUnavailable(Context)
        /// A safety filter blocked the request or response.
        case guardrailViolation(Context)
        /// A schema uses a guide the model cannot follow (now `LanguageModelError.unsupportedGenerationGuide`).
        case unsupportedGuide(Context)
        /// The model does not support the language or locale.
        case unsupportedLanguageOrLocale(Context)
        /// The model's output could not be read as the requested type (now `GeneratedContent.ParsingError`).
        case decodingFailure(Context)
        /// The backend is limiting requests.
        case rateLimited(Context)
        /// A request was made while another was in progress (now `LanguageModelSession.Error.concurrentRequests`).
        case concurrentRequests(Context)
        /// The model declined to answer.
        case refusal(Refusal, Context)

        /// What happened, for developers.
        public struct Context: Sendable {
            /// What happened.
            public let debugDescription: String
            /// The error this one was converted from, so converting back loses nothing.
            let underlying: (any Swift.Error & Sendable)?

            /// Creates a context.
            ///
            /// - Parameter debugDescription: What happened.
            public init(debugDescription: String) {
                self.init(debugDescription: debugDescription, underlying: nil)
            }

            /// A context that keeps the error it was converted from, for the conversions back.
            package init(debugDescription: String, underlying: (any Swift.Error & Sendable)?) {
                self.debugDescription = debugDescription
                self.underlying = underlying
            }
        }

        /// A refusal by the model, with the entries that led to it.
        public struct Refusal: Sendable {
            /// The entries leading up to the refusal; the last response among them holds the model's explanation.
            public let transcriptEntries: [Transcript.Entry]

            /// Creates a refusal.
            ///
            /// - Parameter transcriptEntries: The entries leading up to the refusal. The text of the last response
            ///   entry among them is the explanation.
            public init(transcriptEntries: [Transcript.Entry]) {
                self.transcriptEntries = transcriptEntries
            }

            /// The explanation's text: the last response entry's text, or a sentence saying there is none.
            var explanationText: String {
                for entry in transcriptEntries.reversed() {
                    if case .response(let response) = entry {
                        return response.segments.map(\.description).joined(separator: "\n")
                    }
                }
                return "The model declined to answer and gave no reason."
            }

            /// Why the model refused, as a response.
            ///
            /// Parley's backends give their reason with the refusal, so this asks no model; it is `async throws` as
            /// on Apple platforms.
            ///
            /// - Throws: Nothing in Parley; Apple's framework asks the model and may throw its errors.
            public var explanation: LanguageModelSession.Response<String> {
                get async throws { .fixed(explanationText) }
            }

            /// Why the model refused, as a stream of one snapshot holding the whole explanation.
            public var explanationStream: LanguageModelSession.ResponseStream<String> {
                .fixed(.fixed(explanationText))
            }
        }

        /// The context of any case.
        public var context: Context {
            switch self {
            case .exceededContextWindowSize(let context), .assetsUnavailable(let context),
                .guardrailViolation(let context), .unsupportedGuide(let context),
                .unsupportedLanguageOrLocale(let context), .decodingFailure(let context), .rateLimited(let context),
                .concurrentRequests(let context), .refusal(_, let context):
                context
            }
        }

        /// What happened.
        public var errorDescription: String? { description }

        /// Why it happened.
        public var failureReason: String? { context.debugDescription }

        /// What to do about it.
        public var recoverySuggestion: String? {
            if let underlying = context.underlying as? any LocalizedError,
                let suggestion = underlying.recoverySuggestion
            {
                return suggestion
            }
            switch self {
            case .exceededContextWindowSize:
                return "Shorten the conversation (trim old entries from the transcript) or use a model with a larger "
                    + "context."
            case .assetsUnavailable: return "Check the model's availability, start its server, and try again."
            case .guardrailViolation, .refusal: return "Rephrase the request."
            case .unsupportedGuide: return "Remove the guide from the schema."
            case .unsupportedLanguageOrLocale: return "Use a supported language."
            case .decodingFailure: return "Try again, or simplify the schema so the model can follow it."
            case .rateLimited: return "Wait a moment and try again."
            case .concurrentRequests:
                return "Wait for the session's current request to finish (check isResponding), or use another session."
            }
        }

        /// The case's name and what happened.
        public var description: String {
            let name =
                switch self {
                case .exceededContextWindowSize: "Context window exceeded"
                case .assetsUnavailable: "Assets unavailable"
                case .guardrailViolation: "Guardrail violation"
                case .unsupportedGuide: "Unsupported guide"
                case .unsupportedLanguageOrLocale: "Unsupported language or locale"
                case .decodingFailure: "Decoding failure"
                case .rateLimited: "Rate limited"
                case .concurrentRequests: "Concurrent requests"
                case .refusal: "Refusal"
                }
            return "\(name): \(context.debugDescription)"
        }
    }
}

// MARK: - From the errors sessions throw

#if !FoundationModels26Errors
@available(*, deprecated, message: "Sessions throw LanguageModelError (Apple 27)")
#endif
extension LanguageModelSession.GenerationError {
    /// The 26.x form of an error a session threw, or `nil` when it has none.
    ///
    /// Converts `LanguageModelError` (a `timeout` becomes `rateLimited`, as 26.x had no timeout; an
    /// `unsupportedCapability` or `unsupportedTranscriptContent` becomes `assetsUnavailable`: the model cannot do what
    /// was asked), `LanguageModelSession.Error.concurrentRequests`, `GeneratedContent.ParsingError` (`decodingFailure`)
    /// a `GenerationError` itself, and the errors of modules above this one that have a 26.x form
    /// (`SystemLanguageModel.Error.assetsUnavailable` becomes `assetsUnavailable`). Other errors (`ToolCallError`,
    /// `CancellationError`, a backend's transport errors) give `nil`, as they were never `GenerationError`s.
    ///
    /// ```swift
    /// } catch {
    ///     if let error = LanguageModelSession.GenerationError(error) { handle(error) }
    /// }
    /// ```
    ///
    /// - Parameter error: What a session threw.
    public init?(_ error: any Swift.Error) {
        func context(_ description: String, _ underlying: any Swift.Error & Sendable) -> Context {
            Context(debugDescription: description, underlying: underlying)
        }
        switch error {
        case let error as LanguageModelSession.GenerationError:
            self = error
        case let error as LanguageModelError:
            let description = error.payloadDescription
            switch error {
            case .contextSizeExceeded: self = .exceededContextWindowSize(context(description, error))
            case .rateLimited, .timeout: self = .rateLimited(context(description, error))
            case .refusal(let refusal):
                let entry = Transcript.Entry.response(
                    .init(assetIDs: [], segments: [.text(.init(content: refusal.explanationText))]))
                self = .refusal(Refusal(transcriptEntries: [entry]), context(description, error))
            case .guardrailViolation: self = .guardrailViolation(context(description, error))
            case .unsupportedCapability, .unsupportedTranscriptContent:
                self = .assetsUnavailable(context(description, error))
            case .unsupportedGenerationGuide: self = .unsupportedGuide(context(description, error))
            case .unsupportedLanguageOrLocale: self = .unsupportedLanguageOrLocale(context(description, error))
            }
        case let error as LanguageModelSession.Error where error == .concurrentRequests:
            self = .concurrentRequests(context(error.description, error))
        case let error as GeneratedContent.ParsingError:
            self = .decodingFailure(context(error.description, error))
        case let error as any ConvertibleToGenerationError:
            guard let converted = error.generationError else { return nil }
            self = converted
        default:
            return nil
        }
    }
}

// MARK: - To the errors sessions throw

extension LanguageModelError {
    /// The error a session throws now for a 26.x `GenerationError`, or `nil` for the cases that became other types
    /// (`concurrentRequests`: `LanguageModelSession.Error`; `decodingFailure`: `GeneratedContent.ParsingError`;
    /// `assetsUnavailable`, which has no `LanguageModelError` case).
    ///
    /// An error converted from a `LanguageModelError` converts back to it unchanged. Otherwise the case maps as Apple
    /// documents (`exceededContextWindowSize` → `contextSizeExceeded`, whose sizes are then unknown and 0;
    /// `unsupportedGuide` → `unsupportedGenerationGuide`), and the context's `debugDescription` is kept.
    ///
    /// - Parameter error: The 26.x error.
    #if !FoundationModels26Errors
    @available(*, deprecated, message: "GenerationError is Apple 26's; sessions throw LanguageModelError")
    #endif
    public init?(_ error: LanguageModelSession.GenerationError) {
        if let original = error.context.underlying as? LanguageModelError {
            self = original
            return
        }
        let text = error.context.debugDescription
        switch error {
        case .exceededContextWindowSize:
            self = .contextSizeExceeded(.init(contextSize: 0, tokenCount: 0, debugDescription: text))
        case .guardrailViolation: self = .guardrailViolation(.init(debugDescription: text))
        case .unsupportedGuide: self = .unsupportedGenerationGuide(.init(schemaName: nil, debugDescription: text))
        case .unsupportedLanguageOrLocale:
            self = .unsupportedLanguageOrLocale(.init(languageCode: nil, debugDescription: text))
        case .rateLimited: self = .rateLimited(.init(debugDescription: text))
        case .refusal(let refusal, _):
            self = .refusal(.init(explanation: refusal.explanationText, debugDescription: text))
        case .assetsUnavailable, .decodingFailure, .concurrentRequests:
            return nil
        }
    }

    /// The payload's `debugDescription`, whatever the case.
    var payloadDescription: String {
        switch self {
        case .contextSizeExceeded(let info): info.debugDescription
        case .rateLimited(let info): info.debugDescription
        case .refusal(let info): info.debugDescription
        case .timeout(let info), .guardrailViolation(let info): info.debugDescription
        case .unsupportedCapability(let info): info.debugDescription
        case .unsupportedTranscriptContent(let info): info.debugDescription
        case .unsupportedGenerationGuide(let info): info.debugDescription
        case .unsupportedLanguageOrLocale(let info): info.debugDescription
        }
    }
}

extension LanguageModelSession.Error {
    /// `concurrentRequests` for a 26.x `GenerationError.concurrentRequests`, `nil` for any other case.
    ///
    /// - Parameter error: The 26.x error.
    #if !FoundationModels26Errors
    @available(*, deprecated, message: "GenerationError is Apple 26's; sessions throw LanguageModelSession.Error")
    #endif
    public init?(_ error: LanguageModelSession.GenerationError) {
        guard case .concurrentRequests = error else { return nil }
        self = .concurrentRequests
    }
}

extension GeneratedContent.ParsingError {
    /// The parsing error a session throws now for a 26.x `GenerationError.decodingFailure`, `nil` for any other
    /// case. An error converted from a `ParsingError` converts back to it unchanged; otherwise the raw content is
    /// unknown (empty) and the context's description is kept.
    ///
    /// - Parameter error: The 26.x error.
    #if !FoundationModels26Errors
    @available(*, deprecated, message: "GenerationError is Apple 26's; sessions throw GeneratedContent.ParsingError")
    #endif
    public init?(_ error: LanguageModelSession.GenerationError) {
        guard case .decodingFailure(let context) = error else { return nil }
        if let original = context.underlying as? GeneratedContent.ParsingError {
            self = original
        } else {
            self.init(rawContent: "", debugDescription: context.debugDescription)
        }
    }
}

// MARK: - Errors of the modules above

/// An error of a module above `LanguageModels` that a session may throw and that has a 26.x form, so that
/// `GenerationError(_:)` converts it: `FoundationModels`' `SystemLanguageModel.Error`.
package protocol ConvertibleToGenerationError: Swift.Error {
    /// The error's 26.x form, or `nil` when it has none.
    #if !FoundationModels26Errors
    @available(*, deprecated, message: "GenerationError is Apple 26's")
    #endif
    var generationError: LanguageModelSession.GenerationError? { get }
}
