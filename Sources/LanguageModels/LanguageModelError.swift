import Foundation

/// An error a model or its session reports while generating.
///
/// The cases follow Apple's `LanguageModelError`. Each carries a payload with a `debugDescription` and, where it
/// helps recovery, the facts: `contextSizeExceeded` says how big the window is and how many tokens the request
/// needed, `rateLimited` when to try again.
///
/// ```swift
/// do {
///     try await session.respond(to: question)
/// } catch LanguageModelError.contextSizeExceeded(let info) {
///     print("needed \(info.tokenCount) of \(info.contextSize) tokens")
/// }
/// ```
public enum LanguageModelError: Error, Sendable, LocalizedError, CustomStringConvertible {
    /// The request does not fit the model's context window.
    case contextSizeExceeded(ContextSizeExceeded)
    /// The backend is limiting requests; try again later.
    case rateLimited(RateLimited)
    /// The model declined to answer.
    case refusal(Refusal)
    /// The backend did not answer in time.
    case timeout(Timeout)
    /// A safety filter blocked the request or response.
    case guardrailViolation(GuardrailViolation)
    /// The model cannot do what was asked (tools, guided generation, images, ...).
    case unsupportedCapability(UnsupportedCapability)
    /// The transcript holds entries the model cannot read.
    case unsupportedTranscriptContent(UnsupportedTranscriptContent)
    /// A schema uses a guide the model cannot follow.
    case unsupportedGenerationGuide(UnsupportedGenerationGuide)
    /// The model does not support the language or locale.
    case unsupportedLanguageOrLocale(UnsupportedLanguageOrLocale)

    /// The request needed more tokens than the model's context window holds.
    public struct ContextSizeExceeded: Sendable {
        /// The model's context window, in tokens.
        public var contextSize: Int
        /// The tokens the request needed.
        public var tokenCount: Int
        /// What happened.
        public var debugDescription: String
        /// Backend-specific details.
        public var metadata: [String: any Sendable]

        /// Creates the payload.
        ///
        /// - Parameters:
        ///   - contextSize: The context window in tokens.
        ///   - tokenCount: The tokens the request needed.
        ///   - debugDescription: What happened.
        ///   - metadata: Backend-specific details.
        public init(
            contextSize: Int, tokenCount: Int, debugDescription: String = "", metadata: [String: any Sendable] = [:]
        ) {
            self.contextSize = contextSize
            self.tokenCount = tokenCount
            self.debugDescription =
                debugDescription.isEmpty
                ? "The request needs \(tokenCount) tokens but the model's context holds \(contextSize)."
                : debugDescription
            self.metadata = metadata
        }
    }

    /// The backend is limiting requests.
    public struct RateLimited: Sendable {
        /// When the backend accepts requests again, if it said.
        public var resetDate: Date?
        /// What happened.
        public var debugDescription: String
        /// Backend-specific details.
        public var metadata: [String: any Sendable]

        /// Creates the payload.
        ///
        /// - Parameters:
        ///   - resetDate: When to try again, if known.
        ///   - debugDescription: What happened.
        ///   - metadata: Backend-specific details.
        public init(resetDate: Date? = nil, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.resetDate = resetDate
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The model declined to answer.
    ///
    /// ```swift
    /// } catch LanguageModelError.refusal(let refusal) {
    ///     let reason = try await refusal.explanation.content
    /// }
    /// ```
    public struct Refusal: Sendable {
        /// Why the model declined, in its words, as the backend gave it.
        public var explanationText: String
        /// What happened.
        public var debugDescription: String
        /// Backend-specific details.
        public var metadata: [String: any Sendable]

        /// Creates the payload.
        ///
        /// - Parameters:
        ///   - explanation: The model's reason.
        ///   - debugDescription: What happened.
        ///   - metadata: Backend-specific details.
        public init(explanation: String, debugDescription: String = "", metadata: [String: any Sendable] = [:]) {
            self.explanationText = explanation
            self.debugDescription = debugDescription.isEmpty ? "The model refused: \(explanation)" : debugDescription
            self.metadata = metadata
        }

        /// Why the model declined, as a response whose content is `explanationText` (Apple 27's shape).
        ///
        /// Parley's backends give their reason with the refusal, so this asks no model and the response adds no
        /// entries to any transcript; it is `async throws` as on Apple platforms.
        ///
        /// - Throws: Nothing in Parley; Apple's framework may ask the model and throw its errors.
        public var explanation: LanguageModelSession.Response<String> {
            get async throws { .fixed(explanationText) }
        }

        /// Why the model declined, as a stream of one snapshot holding the whole of `explanationText`.
        public var explanationStream: LanguageModelSession.ResponseStream<String> {
            .fixed(.fixed(explanationText))
        }
    }

    /// A payload of a case with nothing but a description.
    public struct Context: Sendable {
        /// What happened.
        public var debugDescription: String
        /// Backend-specific details.
        public var metadata: [String: any Sendable]

        /// Creates the payload.
        ///
        /// - Parameters:
        ///   - debugDescription: What happened.
        ///   - metadata: Backend-specific details.
        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The backend did not answer in time.
    public typealias Timeout = Context
    /// A safety filter blocked the request or response.
    public typealias GuardrailViolation = Context

    /// The model lacks a capability the request needs.
    public struct UnsupportedCapability: Sendable {
        /// The missing capability.
        public var capability: LanguageModelCapabilities.Capability
        /// What happened.
        public var debugDescription: String
        /// Backend-specific details.
        public var metadata: [String: any Sendable]

        /// Creates the payload.
        ///
        /// - Parameters:
        ///   - capability: The missing capability.
        ///   - debugDescription: What happened.
        ///   - metadata: Backend-specific details.
        public init(
            capability: LanguageModelCapabilities.Capability, debugDescription: String,
            metadata: [String: any Sendable] = [:]
        ) {
            self.capability = capability
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The transcript holds entries the model cannot read.
    public struct UnsupportedTranscriptContent: Sendable {
        /// The entries the model cannot read.
        public var unsupportedContent: [Transcript.Entry]
        /// What happened.
        public var debugDescription: String
        /// Backend-specific details.
        public var metadata: [String: any Sendable]

        /// Creates the payload.
        ///
        /// - Parameters:
        ///   - unsupportedContent: The entries.
        ///   - debugDescription: What happened.
        ///   - metadata: Backend-specific details.
        public init(
            unsupportedContent: [Transcript.Entry], debugDescription: String, metadata: [String: any Sendable] = [:]
        ) {
            self.unsupportedContent = unsupportedContent
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// A schema uses a guide the model cannot follow.
    public struct UnsupportedGenerationGuide: Sendable {
        /// The schema's name, if known.
        public var schemaName: String?
        /// What happened.
        public var debugDescription: String
        /// Backend-specific details.
        public var metadata: [String: any Sendable]

        /// Creates the payload.
        ///
        /// - Parameters:
        ///   - schemaName: The schema's name.
        ///   - debugDescription: What happened.
        ///   - metadata: Backend-specific details.
        public init(schemaName: String?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.schemaName = schemaName
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The model does not support a language or locale.
    public struct UnsupportedLanguageOrLocale: Sendable {
        /// The language, if known.
        public var languageCode: Locale.LanguageCode?
        /// What happened.
        public var debugDescription: String
        /// Backend-specific details.
        public var metadata: [String: any Sendable]

        /// Creates the payload.
        ///
        /// - Parameters:
        ///   - languageCode: The language.
        ///   - debugDescription: What happened.
        ///   - metadata: Backend-specific details.
        public init(
            languageCode: Locale.LanguageCode?, debugDescription: String, metadata: [String: any Sendable] = [:]
        ) {
            self.languageCode = languageCode
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    // MARK: - Descriptions

    /// What happened.
    public var errorDescription: String? { description }

    /// What to do about it.
    public var recoverySuggestion: String? {
        switch self {
        case .contextSizeExceeded:
            "Shorten the conversation (trim old entries from the transcript) or use a model with a larger context."
        case .rateLimited(let info):
            info.resetDate.map { "Try again after \($0.formatted(.iso8601))." } ?? "Wait a moment and try again."
        case .refusal: "Rephrase the request."
        case .timeout: "Check that the model's server is running and not overloaded, then try again."
        case .guardrailViolation: "Rephrase the request."
        case .unsupportedCapability: "Use a model with this capability, or avoid the feature."
        case .unsupportedTranscriptContent: "Remove the unsupported entries from the transcript."
        case .unsupportedGenerationGuide: "Remove the guide from the schema."
        case .unsupportedLanguageOrLocale: "Use a supported language."
        }
    }

    /// What happened, in a sentence.
    public var description: String {
        switch self {
        case .contextSizeExceeded(let info):
            "Context window exceeded: the request needs \(info.tokenCount) tokens, the model holds \(info.contextSize)."
                + (info.debugDescription.hasPrefix("The request needs") ? "" : " \(info.debugDescription)")
        case .rateLimited(let info): "Rate limited: \(info.debugDescription)"
        case .refusal(let info): "Refusal: \(info.debugDescription)"
        case .timeout(let info): "Timed out: \(info.debugDescription)"
        case .guardrailViolation(let info): "Guardrail violation: \(info.debugDescription)"
        case .unsupportedCapability(let info):
            "Unsupported capability (\(info.capability)): \(info.debugDescription)"
        case .unsupportedTranscriptContent(let info): "Unsupported transcript content: \(info.debugDescription)"
        case .unsupportedGenerationGuide(let info): "Unsupported generation guide: \(info.debugDescription)"
        case .unsupportedLanguageOrLocale(let info): "Unsupported language or locale: \(info.debugDescription)"
        }
    }
}

/// What a model can do.
public struct LanguageModelCapabilities: Sendable, Equatable {
    /// One capability.
    public enum Capability: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Calling tools.
        case toolCalling
        /// Generating output that follows a schema.
        case guidedGeneration
        /// Reporting its reasoning.
        case reasoning
        /// Reading images.
        case vision
        /// Reading the values a caller gives with a turn (`GenerationRequest.context`): the scripted model reads the
        /// game there for its rules' conditions. Callers make such values only for backends that say this.
        case contextValues
        /// Answering within this process, with nothing outside it to wait on (no server, no file, no other process):
        /// the scripted model and `MockLanguageModel`. Parley's game gives such a model's turns no time limit: the
        /// limit bounds waiting on a server, and a busy machine must not fail a turn that has nothing to wait for.
        case inProcess

        /// The capability's name.
        public var description: String { rawValue }
    }

    /// The capabilities the model has.
    public var capabilities: Set<Capability>

    /// Creates a capability set.
    ///
    /// - Parameter capabilities: What the model can do.
    public init(_ capabilities: Set<Capability>) {
        self.capabilities = capabilities
    }

    /// Whether the model has `capability`.
    ///
    /// - Parameter capability: The capability.
    /// - Returns: `true` when the model has it.
    public func contains(_ capability: Capability) -> Bool { capabilities.contains(capability) }
}
