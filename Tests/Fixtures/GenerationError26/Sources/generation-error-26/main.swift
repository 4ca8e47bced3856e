// Error handling as an app written for Apple's FoundationModels 26 has it: `catch` clauses of
// `LanguageModelSession.GenerationError`. Built with Parley's `FoundationModels26Errors` trait, sessions throw that
// type, so each clause below runs; each case prints which `catch` ran, one line, for the test that runs this.
import FoundationModels
import LanguageModelsTesting

/// Says which `catch` ran for a 26.x error, and that it explains itself as Apple's does.
func report(_ label: String, _ error: LanguageModelSession.GenerationError) {
    let explained = error.errorDescription != nil && error.recoverySuggestion != nil
    print("\(label): caught GenerationError.\(name(of: error))\(explained ? "" : " (unexplained)")")
}

/// The case's name.
func name(of error: LanguageModelSession.GenerationError) -> String {
    switch error {
    case .exceededContextWindowSize: "exceededContextWindowSize"
    case .assetsUnavailable: "assetsUnavailable"
    case .guardrailViolation: "guardrailViolation"
    case .unsupportedGuide: "unsupportedGuide"
    case .unsupportedLanguageOrLocale: "unsupportedLanguageOrLocale"
    case .decodingFailure: "decodingFailure"
    case .rateLimited: "rateLimited"
    case .concurrentRequests: "concurrentRequests"
    case .refusal: "refusal"
    }
}

let question = "Tell me everything you know about the old mill by the river, and who built it, and when."

// 1. A prompt the model's context cannot hold, awaited: the 26-era recovery path.
do {
    let session = LanguageModelSession(
        model: MockLanguageModel(contextSize: 16, replies: [.text("unused")]), instructions: "You know the town.")
    _ = try await session.respond(to: question)
    print("respond: no error")
} catch LanguageModelSession.GenerationError.exceededContextWindowSize(let context) {
    print(
        "respond: caught GenerationError.exceededContextWindowSize"
            + (context.debugDescription.isEmpty ? " (no description)" : ""))
} catch {
    print("respond: caught \(type(of: error))")
}

// 2. The same, streamed.
do {
    let session = LanguageModelSession(model: MockLanguageModel(contextSize: 16, replies: [.text("unused")]))
    for try await _ in session.streamResponse(to: question) {}
    print("stream: no error")
} catch let error as LanguageModelSession.GenerationError {
    report("stream", error)
} catch {
    print("stream: caught \(type(of: error))")
}

// 3. Output that does not follow the requested type.
do {
    let session = LanguageModelSession(model: MockLanguageModel(replies: [.text("not a number")]))
    _ = try await session.respond(to: "How many mills?", generating: Int.self)
    print("decoding: no error")
} catch let error as LanguageModelSession.GenerationError {
    report("decoding", error)
} catch {
    print("decoding: caught \(type(of: error))")
}

// 4. A model that refuses.
do {
    let refusal = LanguageModelError.refusal(.init(explanation: "I cannot talk about the mill."))
    let session = LanguageModelSession(model: MockLanguageModel(replies: [.failure(refusal)]))
    _ = try await session.respond(to: question)
    print("refusal: no error")
} catch LanguageModelSession.GenerationError.refusal(let refusal, _) {
    let explanation = try await refusal.explanation.content
    print("refusal: caught GenerationError.refusal: \(explanation)")
} catch {
    print("refusal: caught \(type(of: error))")
}

// 5. No model configured (PARLEY_MODEL unset): SystemLanguageModel.default cannot answer.
do {
    let session = LanguageModelSession()
    _ = try await session.respond(to: question)
    print("system: no error")
} catch LanguageModelSession.GenerationError.assetsUnavailable {
    print("system: caught GenerationError.assetsUnavailable")
} catch {
    print("system: caught \(type(of: error))")
}

// 6. Errors with no 26.x form come through as they are: a tool's error is still a ToolCallError.
struct Broken: Error {}
struct Mill: Tool {
    let description = "Looks up the mill."
    func call(arguments: GeneratedContent) async throws -> String { throw Broken() }
}
do {
    let session = LanguageModelSession(
        model: MockLanguageModel(replies: [.toolCall("Mill"), .text("unused")]), tools: [Mill()])
    _ = try await session.respond(to: question)
    print("tool: no error")
} catch let error as LanguageModelSession.ToolCallError {
    print("tool: caught ToolCallError (\(error.underlyingError is Broken ? "Broken" : "other"))")
} catch {
    print("tool: caught \(type(of: error))")
}
