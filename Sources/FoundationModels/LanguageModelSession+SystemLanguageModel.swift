#if !canImport(Darwin)
import LanguageModels

extension LanguageModelSession {
    /// Apple's beta name for the guardrails of a session: `SystemLanguageModel.Guardrails`.
    public typealias Guardrails = SystemLanguageModel.Guardrails

    /// A session with `SystemLanguageModel.default`, as Apple's `LanguageModelSession()`.
    ///
    /// - Parameters:
    ///   - tools: The tools the model may call.
    ///   - instructions: What the model is told before the conversation, if anything.
    public convenience init(tools: [any Tool] = [], instructions: String? = nil) {
        self.init(model: SystemLanguageModel.default, tools: tools, instructions: instructions)
    }

    /// A session with `SystemLanguageModel.default` and instructions.
    ///
    /// - Parameters:
    ///   - tools: The tools the model may call.
    ///   - instructions: What the model is told before the conversation.
    public convenience init(tools: [any Tool] = [], instructions: Instructions?) {
        self.init(model: SystemLanguageModel.default, tools: tools, instructions: instructions)
    }

    /// A session with `SystemLanguageModel.default` and instructions written with the builder.
    ///
    /// - Parameters:
    ///   - tools: The tools the model may call.
    ///   - instructions: Builds what the model is told before the conversation.
    /// - Throws: What the builder throws.
    public convenience init(
        tools: [any Tool] = [], @InstructionsBuilder instructions: () throws -> Instructions
    ) rethrows {
        self.init(model: SystemLanguageModel.default, tools: tools, instructions: try instructions())
    }

    /// A session with `SystemLanguageModel.default` that continues a transcript.
    ///
    /// - Parameters:
    ///   - tools: The tools the model may call.
    ///   - transcript: The conversation so far.
    public convenience init(tools: [any Tool] = [], transcript: Transcript) {
        self.init(model: SystemLanguageModel.default, tools: tools, transcript: transcript)
    }

    /// A session with guardrails, as Apple's 2025 betas declared it; the guardrails change nothing here.
    ///
    /// - Parameters:
    ///   - model: The model; `SystemLanguageModel.default` unless given.
    ///   - guardrails: The guardrails.
    ///   - tools: The tools the model may call.
    ///   - instructions: What the model is told before the conversation, if anything.
    public convenience init(
        model: SystemLanguageModel = .default, guardrails: Guardrails, tools: [any Tool] = [],
        instructions: String? = nil
    ) {
        self.init(model: model, tools: tools, instructions: instructions)
    }

    /// A session with guardrails that continues a transcript, as Apple's 2025 betas declared it; the guardrails
    /// change nothing here.
    ///
    /// - Parameters:
    ///   - model: The model; `SystemLanguageModel.default` unless given.
    ///   - guardrails: The guardrails.
    ///   - tools: The tools the model may call.
    ///   - transcript: The conversation so far.
    public convenience init(
        model: SystemLanguageModel = .default, guardrails: Guardrails, tools: [any Tool] = [],
        transcript: Transcript
    ) {
        self.init(model: model, tools: tools, transcript: transcript)
    }
}
#endif
