import Foundation
import GameWorld
import LLMTestSupport
import LanguageModels
import OpenAICompatible
import ParleyBasics
import ParleyEngine
import ScriptedModel
import Synchronization

/// Speech sentence by sentence: how long a player waits for an NPC's first sentence (the first `speech` event, when
/// a game's text-to-speech can start) against the whole line (`speechEnded`), with a server model, in grounded and
/// free voicing. Each turn is "how much is the lantern?" to Mira, in a new game after a greeting.
///
/// 1. A voice that streams at a fixed rate (`PacedVoice`, one 4-character token every 40 ms, 25 tokens a second),
///    so the figures say what sentence-by-sentence speech buys independently of the machine.
/// 2. The real llama-server with SmolLM2-135M, when installed (`scripts/llm-server install`), in both modes.
enum SpeechLatency {
    /// What one turn showed, and when.
    final class Timeline: Sendable {
        private let start = ContinuousClock.now
        private let marks = Mutex<(first: Duration?, end: Duration?, pieces: Int)>((nil, nil, 0))

        func record(_ output: GameOutput) {
            let now = ContinuousClock.now - start
            marks.withLock { marks in
                switch output {
                case .speech:
                    if marks.first == nil { marks.first = now }
                    marks.pieces += 1
                case .speechEnded: marks.end = now
                default: break
                }
            }
        }

        var figures: (first: Double, end: Double, pieces: Int)? {
            marks.withLock { marks in
                guard let first = marks.first, let end = marks.end else { return nil }
                return (first.milliseconds, end.milliseconds, marks.pieces)
            }
        }
    }

    /// Runs the scenario.
    ///
    /// - Parameter quick: Fewer turns.
    static func run(quick: Bool) async throws {
        let turns = quick ? 5 : 20
        report("## Speech sentence by sentence: time to the first sentence against the whole line")
        report("")
        report(
            "| Voice | Mode | Turns | First sentence p50 ms | Whole line p50 ms | First / whole | Sentences per line | Outcomes |"
        )
        report("|---|---|---:|---:|---:|---:|---:|---|")
        let paced = PacedVoice(interval: .milliseconds(40))
        for mode in [VoiceMode.grounded, .free] {
            try await measure("fixed rate, 25 tokens/s", voice: paced, mode: mode, turns: turns)
        }
        if LlamaServerProcess.installation != nil {
            try await LlamaServerProcess.with(contextSize: 4_096, parallel: 1) { server in
                var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: server.baseURL, apiKey: nil)
                configuration.maximumRetries = 0
                let backend = try await OpenAICompatibleLanguageModel.connect(configuration)
                for mode in [VoiceMode.grounded, .free] {
                    try await measure("llama-server, SmolLM2-135M", voice: backend, mode: mode, turns: turns)
                }
            }
        } else {
            report("| llama-server | | | not installed: scripts/llm-server install | | | | |")
        }
        report("")
    }

    /// Plays `turns` turns with `voice` and reports the medians.
    static func measure(_ name: String, voice: any LanguageModel, mode: VoiceMode, turns: Int) async throws {
        let pack = try BenchContent.shippedPack()
        var firsts: [Double] = []
        var ends: [Double] = []
        var pieces: [Double] = []
        var outcomes: [String: Int] = [:]
        for _ in 0..<turns {
            let game = Game(state: pack.initialState) { npc, world in
                VoicedModel(
                    voice: voice, planner: ScriptedModel(npc: npc, world: world, seed: 1), mode: mode,
                    firstWordsDeadline: .seconds(30))
            }
            await game.perform("talk to mira", output: { _ in })
            let timeline = Timeline()
            await game.perform("how much is the lantern?", output: timeline.record)
            guard let figures = timeline.figures else { throw BenchError("the turn showed no speech") }
            firsts.append(figures.first)
            ends.append(figures.end)
            pieces.append(Double(figures.pieces))
            let summary = await game.lastTurn?.recording.voicing?.summary ?? "none"
            outcomes[summary, default: 0] += 1
        }
        let first = Measure.median(firsts)
        let end = Measure.median(ends)
        let counted = outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        report(
            "| \(name) | \(mode) | \(turns) | \(format(first, digits: 0)) | \(format(end, digits: 0)) | "
                + "\(format(end > 0 ? first / end : 0)) | \(format(Measure.median(pieces), digits: 1)) | \(counted) |")
    }
}
