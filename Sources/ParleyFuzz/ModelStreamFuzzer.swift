import Foundation
import HTTPTestSupport
import LanguageModels
import OpenAICompatible
import ParleyJSON
import Synchronization

/// Fuzzes the OpenAI-compatible backend's stream handling end to end: a loopback server streams seeded mutations of
/// llama-server chat-completion event streams (text and tool-call deltas, usage), in random chunks, sometimes cut
/// off, into a `LanguageModelSession` on an `OpenAICompatibleLanguageModel`.
///
/// Each turn must answer, or fail with one of the errors the API documents (`ModelServerError`,
/// `LanguageModelError`, `ToolRoundLimitExceeded`, `ToolCallError`, `GeneratedContent.ParsingError`) with a
/// description; a failed turn must leave the transcript exactly as it was (no half turn) and the session free for
/// the next turn; an answered turn must end with a response entry.
///
/// ```swift
/// let summary = try await ModelStreamFuzzer.run(iterations: 500, seed: 1)
/// ```
public enum ModelStreamFuzzer {
    /// Runs the fuzzer against its own loopback server.
    ///
    /// - Parameters:
    ///   - iterations: How many turns to stream.
    ///   - seed: The seed; the same seed gives the same streams.
    /// - Returns: What happened.
    /// - Throws: When the loopback server or the HTTP client cannot start (not a finding: the fuzzer could not
    ///   start).
    public static func run(iterations: Int, seed: UInt64) async throws -> FuzzSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = FuzzSummary(target: "model stream (SSE over HTTP)", seed: seed)
        var mutator = Mutator(seed: seed, words: SSEParserFuzzer.words + TranscriptDecoderFuzzer.words)
        let sources = [FuzzCorpus.chatStream(), FuzzCorpus.toolCallStream()].map { Array($0.utf8) }
        let current = Mutex<LoopbackResponse>(.text("not set"))
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("not found", status: 404) }
            return current.withLock { $0 }
        }
        defer { server.stop() }
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", apiKey: nil, contextSize: 4096, toolCalling: .native)
        configuration.maximumRetries = 0
        configuration.idleTimeout = .seconds(5)
        let model = try OpenAICompatibleLanguageModel(configuration: configuration)

        for iteration in 0..<iterations {
            await Task.yield()  // Let the other tasks of the cooperative pool have a turn between inputs.
            summary.iterations += 1
            let bytes = mutator.oneIn(10) ? sources[mutator.below(2)] : mutator.mutate(sources[mutator.below(2)])
            let chunks = SSEParserFuzzer.split(bytes, &mutator).map { Data($0) }
            let ending: LoopbackResponse.Ending = mutator.oneIn(8) ? .cut : .complete
            current.withLock {
                $0 = .stream(
                    status: 200, headers: [("Content-Type", "text/event-stream")], chunks: chunks, interval: .zero,
                    ending: ending)
            }
            let session = LanguageModelSession(model: model, tools: [FuzzStockTool()], instructions: "A merchant.")
            session.maximumToolRounds = 2
            let before = session.transcript
            let excerpt = FuzzFinding.excerpt(bytes)
            do {
                let stream = session.streamResponse(to: "How much is the lantern?")
                for try await _ in stream {}
                _ = try await stream.collect()
                guard case .response? = session.transcript.last, session.transcript.count > before.count else {
                    summary.record(
                        .init(iteration: iteration, problem: "an answered turn without a response", excerpt: excerpt))
                    continue
                }
                summary.accepted += 1
            } catch {
                if let problem = problem(with: error) {
                    summary.record(.init(iteration: iteration, problem: problem, excerpt: excerpt))
                } else if session.transcript != before {
                    summary.record(
                        .init(
                            iteration: iteration, problem: "a failed turn changed the transcript (a half turn)",
                            excerpt: excerpt))
                } else if session.isResponding {
                    summary.record(
                        .init(
                            iteration: iteration, problem: "the session is still busy after a failed turn",
                            excerpt: excerpt))
                } else {
                    summary.rejected += 1
                }
            }
        }
        summary.duration = clock.now - start
        return summary
    }

    /// `nil` when `error` is one the API documents, with a description; otherwise what is wrong with it.
    static func problem(with error: any Error) -> String? {
        // Under the FoundationModels26Errors trait a session throws GenerationError; its 27 form is checked.
        let error = LanguageModelSession.apple27Form(of: error)
        let documented =
            error is ModelServerError || error is LanguageModelError
            || error is LanguageModelSession.ToolRoundLimitExceeded || error is LanguageModelSession.ToolCallError
            || error is GeneratedContent.ParsingError
        guard documented else { return "threw \(type(of: error)), which the API does not document: \(error)" }
        return "\(error)".trimmingCharacters(in: .whitespaces).isEmpty ? "an error without a description" : nil
    }
}
