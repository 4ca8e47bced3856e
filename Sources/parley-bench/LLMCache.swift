import Foundation
import LLMTestSupport
import LanguageModels
import OpenAICompatible
import ParleyBasics
import ParleyJSON

/// Scenario 5: a 40-turn conversation with the real llama-server; per turn, the time to the first token and the
/// share of prompt tokens served from the server's prompt cache. Beside it, the same conversation with the cache
/// defeated (`cache_prompt: false`), to show what the stable prefix buys.
///
/// Time to first token is measured where the player sees it: from `streamResponse` to the first snapshot. It
/// includes the session's context pre-check, which on llama-server is two requests (`/apply-template`, then
/// `/tokenize`) over the whole transcript; that part is shown on its own. The server's own prompt time comes from
/// its `timings`.
enum LLMCache {
    static let turns = 40
    static let persona =
        "You are Mira Quickcoin, a cheerful merchant in the market town of Brackenford. You sell bread, candles, "
        + "lamp oil, a brass lantern, leather boots, rope and a wool cloak. You like to haggle but you are honest. "
        + "Answer in one or two short sentences, in character."
    static let lines = [
        "Hello! What do you sell?", "How much is the lantern?", "Would you take 15 gold for it?",
        "What about the rope?", "Is the bread fresh today?", "Tell me about the town.", "Who is Aurelio?",
        "Do you have any boots?",
    ]

    /// One turn's figures.
    struct Turn {
        var firstToken: Double
        var preCheck: Double
        var serverPrompt: Double?
        var promptTokens: Int
        var cachedTokens: Int?
        var cachedFraction: Double? {
            cachedTokens.map { promptTokens > 0 ? Double($0) / Double(promptTokens) : 0 }
        }
    }

    static func run(quick: Bool) async throws {
        let repetitions = quick ? 1 : 3
        try await LlamaServerProcess.with(contextSize: 4_096, parallel: 1) { server in
            var cached: [[Turn]] = []
            var defeated: [[Turn]] = []
            for _ in 0..<repetitions {
                cached.append(try await conversation(server: server, cache: true))
                defeated.append(try await conversation(server: server, cache: false))
            }
            printReport(cached: cached, defeated: defeated, repetitions: repetitions)
        }
    }

    /// Plays the conversation once and returns each turn's figures.
    static func conversation(server: LlamaServerProcess, cache: Bool) async throws -> [Turn] {
        var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: server.baseURL, apiKey: nil)
        configuration.maximumRetries = 0
        if !cache { configuration.extraBody = JSONObject([("cache_prompt", false)]) }
        let model = TimedModel(try await OpenAICompatibleLanguageModel.connect(configuration), buffersStreams: false)
        let session = LanguageModelSession(model: model, instructions: persona)
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 16)
        let clock = ContinuousClock()
        var result: [Turn] = []
        for number in 1...turns {
            _ = model.take()
            let start = clock.now
            var first: Duration?
            let stream = session.streamResponse(
                to: "\(lines[(number - 1) % lines.count]) (\(number))", options: options)
            for try await _ in stream where first == nil { first = clock.now - start }
            let response = try await stream.collect()
            let totals = model.take()
            let usage = response.generationUsage
            result.append(
                Turn(
                    firstToken: (first ?? clock.now - start).milliseconds, preCheck: totals.tokenCounting.milliseconds,
                    serverPrompt: usage?.promptSeconds.map { $0 * 1000 }, promptTokens: usage?.promptTokens ?? 0,
                    cachedTokens: usage?.cachedPromptTokens))
        }
        return result
    }

    static func printReport(cached: [[Turn]], defeated: [[Turn]], repetitions: Int) {
        func median(_ runs: [[Turn]], _ turn: Int, _ value: (Turn) -> Double?) -> Double {
            Measure.median(runs.compactMap { value($0[turn - 1]) })
        }
        report("## 5. A 40-turn conversation with llama-server: time to first token and prompt cache")
        report("")
        report(
            "| Turn | Prompt tokens | Cached % | TTFT ms | of which pre-check ms | Server prompt ms | TTFT ms, cache defeated | Server prompt ms, cache defeated |"
        )
        report("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for turn in [1, 2, 3, 5, 10, 15, 20, 25, 30, 35, 40] {
            report(
                "| \(turn) | \(format(median(cached, turn) { Double($0.promptTokens) }, digits: 0)) "
                    + "| \(format(100 * median(cached, turn) { $0.cachedFraction }, digits: 1)) "
                    + "| \(format(median(cached, turn) { $0.firstToken }, digits: 1)) "
                    + "| \(format(median(cached, turn) { $0.preCheck }, digits: 1)) "
                    + "| \(format(median(cached, turn) { $0.serverPrompt }, digits: 1)) "
                    + "| \(format(median(defeated, turn) { $0.firstToken }, digits: 1)) "
                    + "| \(format(median(defeated, turn) { $0.serverPrompt }, digits: 1)) |")
        }
        let fractions = (2...turns).map { median(cached, $0) { $0.cachedFraction } }
        let lowest = fractions.min() ?? .nan
        let lowestTurn = (fractions.firstIndex(of: lowest) ?? 0) + 2
        let ratio = median(cached, turns) { $0.firstToken } / median(cached, 2) { $0.firstToken }
        func window(_ runs: [[Turn]], _ range: ClosedRange<Int>) -> Double {
            Measure.median(range.flatMap { turn in runs.map { $0[turn - 1].firstToken } })
        }
        let smoothed = window(cached, 38...40) / window(cached, 2...4)
        let defeatedRatio = median(defeated, turns) { $0.firstToken } / median(defeated, 2) { $0.firstToken }
        report("")
        report(
            "Medians over \(repetitions) run\(repetitions == 1 ? "" : "s") of each conversation; greedy sampling, "
                + "16 tokens per answer. TTFT is from `streamResponse` to the first snapshot.")
        report(
            "Target: ≥ 90% cached from turn 2 on: lowest \(format(100 * lowest, digits: 1))% (turn \(lowestTurn)), "
                + "\(verdict(lowest >= 0.9))"
                + (lowest < 0.9 ? " (by \(format(100 * (0.9 - lowest), digits: 1)) points)" : "")
                + ".")
        report(
            "Target: TTFT at turn 40 ≤ 1.3× turn 2: \(format(ratio, digits: 2))×, \(verdict(ratio <= 1.3))"
                + (ratio > 1.3 ? " (by \(format(ratio / 1.3, digits: 2))× over)" : "")
                + " (turns 38–40 ÷ turns 2–4: \(format(smoothed, digits: 2))×). With the cache defeated: "
                + "\(format(defeatedRatio, digits: 2))×.")
        report("")
    }
}
