import Foundation
import LLMTestSupport
import LanguageModels
import OpenAICompatible
import ParleyJSON

/// Scenario 6: eight NPCs answering at once through llama-server with `--parallel 4`, against the same eight one
/// after another, on the same server. Throughput is generated tokens per second of wall time.
///
/// Every answer is 32 tokens (`ignore_eos`), and the prompt cache is off (`cache_prompt: false`), so both ways do
/// the same work and neither profits from the other's cached prompts. Rounds alternate the order.
enum LLMParallel {
    static let npcs = [
        "Mira, a cheerful merchant", "Brannoc, a gruff blacksmith", "Hesper, a sly innkeeper", "Oona, a river witch",
        "Pip, a street urchin", "Aurelio, an old collector", "Greta, a gate guard", "Fenn, a ferryman",
    ]
    static let tokens = 32

    static func run(quick: Bool) async throws {
        let rounds = quick ? 1 : 3
        try await LlamaServerProcess.with(contextSize: 4 * 1_024, parallel: 4) { server in
            var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: server.baseURL, apiKey: nil)
            configuration.maximumRetries = 0
            configuration.extraBody = JSONObject([("cache_prompt", false), ("ignore_eos", true)])
            let model = try await OpenAICompatibleLanguageModel.connect(configuration)
            _ = try await turn(model: model, npc: npcs[0])  // warm up
            var sequential: [Double] = []
            var parallel: [Double] = []
            var sequentialTokens = 0
            var parallelTokens = 0
            for round in 0..<rounds {
                for mode in round % 2 == 0 ? [false, true] : [true, false] {
                    let (milliseconds, generated) = try await Measure.time {
                        mode ? try await concurrently(model: model) : try await oneAfterAnother(model: model)
                    }
                    let rate = Double(generated) / (milliseconds / 1000)
                    if mode {
                        parallel.append(rate)
                        parallelTokens = generated
                    } else {
                        sequential.append(rate)
                        sequentialTokens = generated
                    }
                }
            }
            let ratio = Measure.median(parallel) / Measure.median(sequential)
            report("## 6. Eight NPCs at once through llama-server --parallel 4, against one after another")
            report("")
            report("| Way | Tokens per round | Throughput median tokens/s | Wall per round median s |")
            report("|---|---:|---:|---:|")
            report(
                "| One after another | \(sequentialTokens) | \(format(Measure.median(sequential), digits: 1)) "
                    + "| \(format(Double(sequentialTokens) / Measure.median(sequential), digits: 2)) |")
            report(
                "| Eight at once (4 slots) | \(parallelTokens) | \(format(Measure.median(parallel), digits: 1)) "
                    + "| \(format(Double(parallelTokens) / Measure.median(parallel), digits: 2)) |")
            report("")
            report(
                "\(rounds) round\(rounds == 1 ? "" : "s"), \(tokens) tokens per answer, 1,024 tokens of context per slot. "
                    + "Target: ≥ 2.5× the throughput: \(format(ratio, digits: 2))×, \(verdict(ratio >= 2.5))"
                    + (ratio < 2.5 ? " (\(format(2.5 / ratio, digits: 2))× short)" : "") + ".")
            report("")
        }
    }

    /// One NPC's turn in a new session; returns the tokens generated.
    static func turn(model: OpenAICompatibleLanguageModel, npc: String) async throws -> Int {
        let session = LanguageModelSession(
            model: model, instructions: "You are \(npc) in a market town. Stay in character.")
        let response = try await session.respond(
            to: "Good day! What can you tell me about this town?",
            options: GenerationOptions(sampling: .greedy, maximumResponseTokens: tokens))
        return response.generationUsage?.completionTokens ?? 0
    }

    static func oneAfterAnother(model: OpenAICompatibleLanguageModel) async throws -> Int {
        var total = 0
        for npc in npcs { total += try await turn(model: model, npc: npc) }
        return total
    }

    static func concurrently(model: OpenAICompatibleLanguageModel) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for npc in npcs { group.addTask { try await turn(model: model, npc: npc) } }
            return try await group.reduce(0, +)
        }
    }
}
