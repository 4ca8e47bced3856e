import Foundation
import LanguageModels

/// A stand-in for a model server that generates at a fixed token rate: for grounded voicing it says the planned
/// line (the `Reply:` line of the voice's prompt) after a few words of its own, for anything else a fixed
/// three-sentence line; it streams one token (4 characters) every `interval`, so a line of N characters takes
/// N / 4 × `interval` whole, whatever the machine.
struct PacedVoice: LanguageModel {
    /// The time between two tokens.
    let interval: Duration
    /// What it answers when not asked to voice a planned line (free mode).
    static let freeLine =
        "The Brass Lantern is 25 gold, friend. It burns all night on one flask of oil. Shall I wrap it?"

    var id: String { "paced" }
    var version: String { "1" }
    var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([.toolCalling]) }
    var contextSize: Int { get async throws { 8_192 } }

    func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        TokenEstimate.tokens(in: entries)
    }

    func tokenCount(for schema: GenerationSchema) async throws -> Int { TokenEstimate.tokens(in: schema) }

    /// The line it says for a request.
    static func line(for request: GenerationRequest) -> String {
        guard
            case .prompt(let prompt)? = request.transcript.last(where: { if case .prompt = $0 { true } else { false } })
        else { return freeLine }
        let text = prompt.segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }
            .joined()
        guard let reply = text.split(separator: "\n").last(where: { $0.hasPrefix("Reply: ") }) else { return freeLine }
        return "Well now, friend. " + reply.dropFirst("Reply: ".count)
    }

    func generate(_ request: GenerationRequest) async throws -> Generation {
        let line = Self.line(for: request)
        try await Task.sleep(for: interval * ((line.count + 3) / 4))
        return Generation(output: .text(line))
    }

    func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Error> {
        let line = Array(Self.line(for: request))
        let interval = interval
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var start = 0
                    while start < line.count {
                        try await Task.sleep(for: interval)
                        let end = min(start + 4, line.count)
                        continuation.yield(.text(String(line[start..<end])))
                        start = end
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
