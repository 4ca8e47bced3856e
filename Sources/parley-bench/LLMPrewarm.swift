import Foundation
import GameWorld
import LLMTestSupport
import LanguageModels
import OpenAICompatible
import ParleyEngine
import ScriptedModel
import Synchronization

/// Scenario 5c: the first words of first conversations with llama-server, with and without prewarm.
///
/// Two games walk through the shipped world side by side, each on a server of its own (one with prewarms, one
/// without), step by step in turn, so that the machine's load changes both alike. The walk meets six NPCs for the
/// first time: the player enters a place (where the game prewarms the NPCs there), reads it for a moment (until
/// the prewarm is over, at most 15 s, then half a second), and talks to the NPC. Two figures per first conversation:
/// the game's first words (`TurnResult.Timing.firstWords`: in grounded mode the voiced line, checked, so the whole
/// line and any second attempt; in free mode the server's first streamed words), and the voice's time to its first
/// token on its first request of the turn, which is what a prewarm shortens. The first-words deadline is 30 s, so
/// that the time measured is the voice's, not the deadline's.
enum LLMPrewarm {
    /// A command, and the NPC met there for the first time, if any.
    static let walk: [(command: String, npc: String?)] = [
        ("go east", "brannoc"), ("go west", "mira"), ("go south", "pip"), ("go east", "aurelio"),
        ("go west", nil), ("go north", nil), ("go north", "oona"), ("go south", nil), ("go west", "hesper"),
    ]

    /// One first conversation.
    struct Sample {
        var mode: VoiceMode
        var prewarmed: Bool
        var firstWords: Double
        var voiceFirstToken: Double?
        var voiced: Bool
    }

    /// A game on its own server, its NPCs' voices timed.
    final class Player: Sendable {
        let prewarmed: Bool
        let server: LlamaServerProcess
        let backend: OpenAICompatibleLanguageModel
        let game: Game
        private let shared: SharedVoices

        init(pack: ContentPack, mode: VoiceMode, prewarmed: Bool) async throws {
            self.prewarmed = prewarmed
            server = try await LlamaServerProcess(contextSize: 4_096, parallel: 1)
            var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: server.baseURL, apiKey: nil)
            configuration.maximumRetries = 0
            configuration.prewarms = prewarmed
            let backend = try await OpenAICompatibleLanguageModel.connect(configuration)
            self.backend = backend
            let shared = SharedVoices()
            // As `ModelChoice.makeProvider` plays NPCs on a server, with a deadline that does not cut the measure
            // short; one timed voice per NPC, for the prewarm and the turns alike.
            game = Game(state: pack.initialState) { npc, world in
                let voice = shared.voice(for: npc.id) {
                    TimedModel(
                        backend.replying(inAtMost: mode == .free ? VoicedModel.defaultSentenceBudget : nil)
                            .keepingCache(as: SlotCacheKey(scope: world.id, name: npc.id.rawValue)),
                        buffersStreams: false)
                }
                return VoicedModel(
                    voice: voice, planner: ScriptedModel(npc: npc, world: world, seed: 1), mode: mode,
                    firstWordsDeadline: .seconds(30))
            }
            self.shared = shared
        }

        /// The NPCs' timed voices, made once each.
        final class SharedVoices: Sendable {
            // The Mutex protects the voices; the class lets the provider's calls share them.
            private let made = Mutex<[NPCID: TimedModel<OpenAICompatibleLanguageModel>]>([:])

            func voice(
                for npc: NPCID, make: () -> TimedModel<OpenAICompatibleLanguageModel>
            ) -> TimedModel<OpenAICompatibleLanguageModel> {
                made.withLock { made in
                    if let voice = made[npc] { return voice }
                    let voice = make()
                    made[npc] = voice
                    return voice
                }
            }

            func existing(_ npc: NPCID) -> TimedModel<OpenAICompatibleLanguageModel>? { made.withLock { $0[npc] } }
        }

        /// Takes one step of the walk; returns the first conversation's figures, if the step has one.
        func take(_ step: (command: String, npc: String?), mode: VoiceMode) async throws -> Sample? {
            let before = await backend.slotCacheStatistics
            await game.perform(step.command) { _ in }
            guard let npc = step.npc else { return nil }
            if prewarmed {
                let clock = ContinuousClock()
                let deadline = clock.now + .seconds(15)
                while clock.now < deadline {
                    let now = await backend.slotCacheStatistics
                    if now.prewarms + now.cancelledPrewarms > before.prewarms + before.cancelledPrewarms { break }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            try await Task.sleep(for: .milliseconds(500))
            let previous = await game.lastTurn?.recording.id
            _ = shared.existing(NPCID(npc))?.take()
            await game.perform("talk to \(npc)") { _ in }
            guard let turn = await game.lastTurn, turn.recording.id != previous, turn.npc.rawValue == npc,
                let voicing = turn.recording.voicing, let firstWords = turn.timing.firstWords
            else { return nil }  // An authored beat answered, without the model.
            let voice = shared.existing(turn.npc)?.take()
            return Sample(
                mode: mode, prewarmed: prewarmed, firstWords: firstWords.milliseconds,
                voiceFirstToken: voice?.firstUpdate?.milliseconds, voiced: voicing.isVoiced)
        }
    }

    static func run(quick: Bool) async throws {
        let pack = try BenchContent.shippedPack()
        var samples: [Sample] = []
        for _ in 0..<(quick ? 1 : 2) {
            for mode in [VoiceMode.grounded, .free] {
                let players = [
                    try await Player(pack: pack, mode: mode, prewarmed: true),
                    try await Player(pack: pack, mode: mode, prewarmed: false),
                ]
                defer { for player in players { player.server.stop() } }
                for step in walk {
                    for player in players {
                        if let sample = try await player.take(step, mode: mode) { samples.append(sample) }
                    }
                }
            }
        }
        printReport(samples)
    }

    static func printReport(_ samples: [Sample]) {
        report("### 5c. First words of a first conversation, with and without prewarm")
        report("")
        report(
            "| Mode | Prewarm | First conversations | First words p50 ms | p90 ms | Voice's first token p50 ms | p90 ms | Voiced |"
        )
        report("|---|---|---:|---:|---:|---:|---:|---:|")
        var medians: [VoiceMode: [Bool: (words: Double, token: Double)]] = [:]
        for mode in [VoiceMode.grounded, .free] {
            for prewarmed in [false, true] {
                let chosen = samples.filter { $0.mode == mode && $0.prewarmed == prewarmed }
                let words = chosen.map(\.firstWords)
                let tokens = chosen.compactMap(\.voiceFirstToken)
                medians[mode, default: [:]][prewarmed] = (Measure.median(words), Measure.median(tokens))
                report(
                    "| \(mode) | \(prewarmed ? "yes" : "no") | \(chosen.count) "
                        + "| \(format(Measure.median(words), digits: 0)) "
                        + "| \(format(Measure.percentile(words, 90), digits: 0)) "
                        + "| \(format(Measure.median(tokens), digits: 0)) "
                        + "| \(format(Measure.percentile(tokens, 90), digits: 0)) "
                        + "| \(chosen.filter(\.voiced).count) of \(chosen.count) |")
            }
        }
        report("")
        let summaries = [VoiceMode.grounded, .free].map { mode -> String in
            let without = medians[mode]?[false] ?? (.nan, .nan)
            let with = medians[mode]?[true] ?? (.nan, .nan)
            return "\(mode): first words \(format(with.words, digits: 0)) ms against "
                + "\(format(without.words, digits: 0)) ms (\(format(with.words / without.words, digits: 2))×), the "
                + "voice's first token "
                + "\(format(with.token, digits: 0)) ms against \(format(without.token, digits: 0)) ms "
                + "(\(format(with.token / without.token, digits: 2))×)"
        }
        report(
            "Two games side by side, step by step, each on its own server (`--parallel 1`); the player waits for the "
                + "prewarm (at most 15 s) and half a second before talking. With prewarm: "
                + summaries.joined(separator: "; ") + ".")
        report("")
    }
}
