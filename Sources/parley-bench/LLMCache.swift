import Foundation
import LLMTestSupport
import LanguageModels
import OpenAICompatible
import ParleyBasics
import ParleyJSON

/// Scenario 5: a 40-turn conversation with the real llama-server, and its KV cache across processes.
///
/// 1. Per turn: the time to the first token, and the prompt tokens the server processed (`timings.prompt_n`, that
///    is prompt tokens less cached ones) against the turn's new tokens (what the context after the previous turn
///    did not hold: the player's line and the chat template's framing). Beside it, the same conversation with the
///    cache defeated (`cache_prompt: false`), to show what the stable prefix buys.
/// 2. The first turn after a simulated `parley play --continue`: the server and the backend are new (a new process
///    of each, the server's memory empty) and the conversation is restored from its transcript: with the NPC's slot
///    file restored at the turn, restored by a prewarm before the turn (as the game could do when it shows the place
///    after loading), and without it (today's cold start), against a warm turn of the same conversation. The
///    first process saves the slot as the game does when it closes; a switch to another NPC and back shows the
///    same on one server with fewer slots than NPCs.
/// 3. Prewarm (`LLMPrewarm`): the first words of first conversations with and without it.
///
/// Time to first token is measured where the player sees it: from `streamResponse` to the first snapshot. It
/// includes the session's context pre-check, which on llama-server is two requests (`/apply-template`, then
/// `/tokenize`) over the whole transcript, and, for a restored turn, the slot restore.
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
    static let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 16)
    static let mira = SlotCacheKey(scope: "bench", name: "mira")
    static let bram = SlotCacheKey(scope: "bench", name: "bram")

    /// One turn's figures.
    struct Turn {
        var firstToken: Double
        var preCheck: Double
        var serverPrompt: Double?
        var promptTokens: Int
        var cachedTokens: Int?
        var completionTokens: Int
        /// The prompt tokens the server processed (`timings.prompt_n`).
        var processed: Int? { cachedTokens.map { promptTokens - $0 } }
    }

    /// A backend on the server, its copy timed, and a session.
    struct Conversation {
        var backend: OpenAICompatibleLanguageModel
        var model: TimedModel<OpenAICompatibleLanguageModel>
        var session: LanguageModelSession
    }

    /// The figures of one repetition of part 2.
    struct Continuation {
        var warm: Turn?
        var switchedBack: Turn?
        var restored: Turn?
        var warmAfterRestore: Turn?
        var prewarmed: Turn?
        var cold: Turn?
        var saveMilliseconds = 0.0
        var savedBytes = 0
        var restoreMilliseconds = 0.0
        var restoredFromFile = false
    }

    static func run(quick: Bool) async throws {
        let repetitions = quick ? 1 : 3
        var cached: [[Turn]] = []
        var defeated: [[Turn]] = []
        var continuations: [Continuation] = []
        for _ in 0..<repetitions {
            let folder = try BenchContent.temporaryFolder("slots")
            defer { try? FileManager.default.removeItem(at: folder) }
            var figures = Continuation()
            var transcript = Transcript()
            // The first process: the conversation, a warm turn, a switch to another NPC and back, and the save the
            // game makes when it closes.
            try await LlamaServerProcess.with(contextSize: 4_096, parallel: 1, slotSavePath: folder) { server in
                defeated.append(try await play(try await connect(server, cache: false), turns: 1...turns))
                let conversation = try await connect(server, key: mira)
                cached.append(try await play(conversation, turns: 1...turns))
                figures.warm = try await turn(turns + 1, in: conversation)
                let other = try await connect(server, key: bram, sharing: conversation.backend)
                _ = try await play(other, turns: 1...3)
                figures.switchedBack = try await turn(turns + 2, in: conversation)
                transcript = conversation.session.transcript
                let before = await conversation.backend.slotCacheStatistics
                await conversation.backend.saveSlotCaches()
                let after = await conversation.backend.slotCacheStatistics
                figures.saveMilliseconds = (after.saveMilliseconds - before.saveMilliseconds)
                figures.savedBytes = after.savedBytes - before.savedBytes
            }
            // A new process of each, with the conversation as the save keeps it: the slot file restored...
            try await LlamaServerProcess.with(contextSize: 4_096, parallel: 1, slotSavePath: folder) { server in
                let conversation = try await connect(server, key: mira, transcript: transcript)
                figures.restored = try await turn(turns + 3, in: conversation)
                let statistics = await conversation.backend.slotCacheStatistics
                figures.restoreMilliseconds = statistics.restoreMilliseconds
                figures.restoredFromFile = statistics.restores == 1
                figures.warmAfterRestore = try await turn(turns + 4, in: conversation)
            }
            // ... restored and prewarmed before the turn, as the game could when it shows the place after
            // `--continue` (the player reads it before typing)...
            try await LlamaServerProcess.with(contextSize: 4_096, parallel: 1, slotSavePath: folder) { server in
                let conversation = try await connect(server, key: mira, transcript: transcript)
                await conversation.session.model.prewarm(for: GenerationRequest(transcript: transcript))
                figures.prewarmed = try await turn(turns + 3, in: conversation)
            }
            // ... and not (what every first turn after --continue cost before).
            try await LlamaServerProcess.with(contextSize: 4_096, parallel: 1, slotSavePath: folder) { server in
                let conversation = try await connect(server, key: mira, transcript: transcript, keepsCaches: false)
                figures.cold = try await turn(turns + 3, in: conversation)
            }
            continuations.append(figures)
        }
        printReport(cached: cached, defeated: defeated, repetitions: repetitions)
        printContinuation(continuations)
        try await LLMPrewarm.run(quick: quick)
    }

    /// A backend on the server (or a copy of `sharing`, with its slot table) keyed by `key`, timed, with a session
    /// on `transcript` or on the persona.
    static func connect(
        _ server: LlamaServerProcess, key: SlotCacheKey? = nil, cache: Bool = true, transcript: Transcript? = nil,
        keepsCaches: Bool = true, sharing: OpenAICompatibleLanguageModel? = nil
    ) async throws -> Conversation {
        var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: server.baseURL, apiKey: nil)
        configuration.maximumRetries = 0
        configuration.keepsSlotCaches = keepsCaches
        if !cache { configuration.extraBody = JSONObject([("cache_prompt", false)]) }
        let backend: OpenAICompatibleLanguageModel
        if let sharing {
            backend = sharing
        } else {
            backend = try await OpenAICompatibleLanguageModel.connect(configuration)
        }
        let model = TimedModel(backend.keepingCache(as: key), buffersStreams: false)
        let session =
            transcript.map { LanguageModelSession(model: model, transcript: $0) }
            ?? LanguageModelSession(model: model, instructions: persona)
        return Conversation(backend: backend, model: model, session: session)
    }

    /// Plays turns of the conversation and returns each one's figures.
    static func play(_ conversation: Conversation, turns: ClosedRange<Int>) async throws -> [Turn] {
        var result: [Turn] = []
        for number in turns { result.append(try await turn(number, in: conversation)) }
        return result
    }

    /// One turn, measured.
    static func turn(_ number: Int, in conversation: Conversation) async throws -> Turn {
        let clock = ContinuousClock()
        _ = conversation.model.take()
        let start = clock.now
        var first: Duration?
        let stream = conversation.session.streamResponse(
            to: "\(lines[(number - 1) % lines.count]) (\(number))", options: options)
        for try await _ in stream where first == nil { first = clock.now - start }
        let response = try await stream.collect()
        let totals = conversation.model.take()
        let usage = response.usage
        return Turn(
            firstToken: (first ?? clock.now - start).milliseconds, preCheck: totals.tokenCounting.milliseconds,
            serverPrompt: usage?.promptSeconds.map { $0 * 1000 }, promptTokens: usage?.promptTokens ?? 0,
            cachedTokens: usage?.cachedPromptTokens, completionTokens: usage?.completionTokens ?? 0)
    }

    /// The tokens of turn `index` (0-based) that the context after the turn before did not hold: its prompt less
    /// the previous prompt and what the server generated then. The first turn's are all new.
    static func newTokens(_ turns: [Turn], _ index: Int) -> Int {
        guard index > 0 else { return turns[0].promptTokens }
        return turns[index].promptTokens - turns[index - 1].promptTokens - turns[index - 1].completionTokens
    }

    static func printReport(cached: [[Turn]], defeated: [[Turn]], repetitions: Int) {
        func median(_ runs: [[Turn]], _ turn: Int, _ value: (Turn) -> Double?) -> Double {
            Measure.median(runs.compactMap { value($0[turn - 1]) })
        }
        func newTokens(_ turn: Int) -> Double {
            Measure.median(cached.map { Double(Self.newTokens($0, turn - 1)) })
        }
        report("## 5. A 40-turn conversation with llama-server: tokens processed, time to first token, continue")
        report("")
        report(
            "| Turn | Prompt tokens | New tokens | Processed (`prompt_n`) | Processed ÷ new | TTFT ms | of which pre-check ms | Server prompt ms | TTFT ms, cache defeated | Server prompt ms, cache defeated |"
        )
        report("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for turn in [1, 2, 3, 5, 10, 15, 20, 25, 30, 35, 40] {
            let processed = median(cached, turn) { $0.processed.map(Double.init) }
            report(
                "| \(turn) | \(format(median(cached, turn) { Double($0.promptTokens) }, digits: 0)) "
                    + "| \(format(newTokens(turn), digits: 0)) | \(format(processed, digits: 0)) "
                    + "| \(format(processed / newTokens(turn), digits: 2)) "
                    + "| \(format(median(cached, turn) { $0.firstToken }, digits: 1)) "
                    + "| \(format(median(cached, turn) { $0.preCheck }, digits: 1)) "
                    + "| \(format(median(cached, turn) { $0.serverPrompt }, digits: 1)) "
                    + "| \(format(median(defeated, turn) { $0.firstToken }, digits: 1)) "
                    + "| \(format(median(defeated, turn) { $0.serverPrompt }, digits: 1)) |")
        }
        // Turns 2 to 40: processed ÷ new over the whole conversation, and the worst turn.
        let ratios = cached.map { run -> (total: Double, worst: Double, worstTurn: Int) in
            let processed = (1..<turns).map { Double(run[$0].processed ?? run[$0].promptTokens) }
            let new = (1..<turns).map { Double(max(Self.newTokens(run, $0), 1)) }
            let perTurn = zip(processed, new).map { $0 / $1 }
            let worst = perTurn.max() ?? .nan
            return (processed.reduce(0, +) / new.reduce(0, +), worst, (perTurn.firstIndex(of: worst) ?? 0) + 2)
        }
        let total = Measure.median(ratios.map(\.total))
        let worst = ratios.max { $0.worst < $1.worst }
        let ratio = median(cached, turns) { $0.firstToken } / median(cached, 2) { $0.firstToken }
        func window(_ runs: [[Turn]], _ range: ClosedRange<Int>) -> Double {
            Measure.median(range.flatMap { turn in runs.map { $0[turn - 1].firstToken } })
        }
        let smoothed = window(cached, 38...40) / window(cached, 2...4)
        let defeatedRatio = median(defeated, turns) { $0.firstToken } / median(defeated, 2) { $0.firstToken }
        report("")
        report(
            "Medians over \(repetitions) run\(repetitions == 1 ? "" : "s") of each conversation; greedy sampling, "
                + "16 tokens per answer. TTFT is from `streamResponse` to the first snapshot. New tokens: the turn's "
                + "prompt less the previous turn's prompt and the tokens generated then (the player's line and the "
                + "chat template's framing).")
        report(
            "Target: prompt tokens processed per turn = the turn's new tokens, turns 2–40: processed ÷ new "
                + "\(format(total, digits: 2)) over the conversation (worst turn \(worst?.worstTurn ?? 0): "
                + "\(format(worst?.worst ?? .nan, digits: 2))), \(verdict(total <= 1.1)) (≤ 1.1).")
        report(
            "Target: TTFT at turn 40 ≤ 1.3× turn 2: \(format(ratio, digits: 2))×, \(verdict(ratio <= 1.3))"
                + (ratio > 1.3 ? " (by \(format(ratio / 1.3, digits: 2))× over)" : "")
                + " (turns 38–40 ÷ turns 2–4: \(format(smoothed, digits: 2))×). With the cache defeated: "
                + "\(format(defeatedRatio, digits: 2))×.")
        report("")
    }

    static func printContinuation(_ runs: [Continuation]) {
        func median(_ value: (Continuation) -> Turn?, _ figure: (Turn) -> Double?) -> Double {
            Measure.median(runs.compactMap { value($0).flatMap(figure) })
        }
        func row(_ name: String, _ value: (Continuation) -> Turn?) {
            report(
                "| \(name) | \(format(median(value) { $0.firstToken }, digits: 1)) "
                    + "| \(format(median(value) { $0.serverPrompt }, digits: 1)) "
                    + "| \(format(median(value) { $0.processed.map(Double.init) }, digits: 0)) "
                    + "| \(format(median(value) { $0.cachedTokens.map(Double.init) }, digits: 0)) |")
        }
        report("### 5b. The first turn after `--continue` (turn 43 of the conversation), against a warm turn")
        report("")
        report("| Turn | TTFT ms | Server prompt ms | Processed tokens | Cached tokens |")
        report("|---|---:|---:|---:|---:|")
        row("Warm: turn 41, same processes", \.warm)
        row("Back to Mira after 3 turns with another NPC, one slot (turn 42)", \.switchedBack)
        row("After continue, slot file restored (new server and backend, turn 43)", \.restored)
        row("… the turn after it (44)", \.warmAfterRestore)
        row("After continue, restored by a prewarm before the turn (new server and backend, turn 43)", \.prewarmed)
        row("After continue, cold: no slot file (today, turn 43)", \.cold)
        let warm = median(\.warm) { $0.firstToken }
        let restored = median(\.restored) { $0.firstToken }
        let prewarmed = median(\.prewarmed) { $0.firstToken }
        let cold = median(\.cold) { $0.firstToken }
        report("")
        report(
            "Medians over \(runs.count) run\(runs.count == 1 ? "" : "s"). Restored from the file in "
                + "\(runs.filter(\.restoredFromFile).count) of \(runs.count); the restore took "
                + "\(format(Measure.median(runs.map(\.restoreMilliseconds)), digits: 1)) ms on the server; saving "
                + "the slot as the game closes took \(format(Measure.median(runs.map(\.saveMilliseconds)), digits: 1)) "
                + "ms for \(format(Measure.median(runs.map { Double($0.savedBytes) }) / 1_048_576, digits: 1)) MiB.")
        report(
            "Target: TTFT of the first turn after continue ≤ 1.2× a warm turn's (turn 41): "
                + "\(format(restored / warm, digits: 2))×, \(verdict(restored <= 1.2 * warm)); restored by a prewarm "
                + "before it: \(format(prewarmed / warm, digits: 2))×, \(verdict(prewarmed <= 1.2 * warm)); cold (today): "
                + "\(format(cold / warm, digits: 2))× a warm turn, \(format(cold / restored, digits: 1))× the "
                + "restored one.")
        report("")
    }
}
