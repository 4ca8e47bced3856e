import LanguageModels

/// A model that answers with the prompt's words, for sessions that only need a transcript.
struct EchoModel: LanguageModel {
    let id = "echo"
    let version = "1"
    let contextSize = 4_096

    func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int { entries.count }
    func tokenCount(for schema: GenerationSchema) async throws -> Int { 0 }
    func generate(_ request: GenerationRequest) async throws -> Generation {
        Generation(output: .text(request.transcript.last?.description ?? ""))
    }
}
