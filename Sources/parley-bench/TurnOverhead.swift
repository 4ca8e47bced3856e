import Foundation
import GameWorld
import LanguageModels
import ParleyBasics
import ParleyEngine
import ScriptedModel

/// Scenario 1: the engine's own work per turn (everything but the model's generation) with the scripted model,
/// against the length of the conversation.
///
/// Each turn goes through `Game.perform` (the command parser, the trade guard's quotes, the session's turn loop
/// with its context pre-check, the NPC tools, the turn's annotations, the output), on Mira's conversation restored
/// from a save of N entries (`RestoredConversations`). The model is the scripted model inside a `TimedModel`, which
/// drains each generation before handing it over: the time inside the scripted model is subtracted from the
/// turn's wall time. The transcript is reset to its N entries before every turn, so N stays N.
enum TurnOverhead {
    /// The lines the player says, in turn: a price question (a tool call and its output, then the answer) and
    /// a question answered without tools.
    static let lines = ["how much is the lantern?", "what do you sell?", "how much is the rope?"]

    /// The conversation lengths measured.
    static let defaultSizes = [10, 100, 1_000, 5_000]

    /// Runs the scenario.
    ///
    /// - Parameters:
    ///   - quick: Fewer turns timed.
    ///   - sizes: The conversation lengths.
    ///   - samples: Turns timed per length.
    static func run(quick: Bool, sizes: [Int] = defaultSizes, samples requested: Int? = nil) async throws {
        let pack = try BenchContent.shippedPack()
        let mira = NPCID("mira")
        let played = try await playedConversation(pack: pack, npc: mira)
        report("## 1. Engine overhead per turn (scripted model), against transcript length")
        report("")
        report(
            "| Entries | Turns timed | Overhead median ms | Overhead p95 ms | of which context pre-check (median) ms | Scripted model generation median ms | Wall median ms |"
        )
        report("|---:|---:|---:|---:|---:|---:|---:|")
        var medians: [Int: Double] = [:]
        let samples = requested ?? (quick ? 20 : 60)
        for size in sizes {
            let transcript = ConversationFixture.extend(played, to: size)
            let result = try await measure(
                pack: pack, npc: mira, transcript: transcript, samples: samples)
            medians[size] = Measure.median(result.overhead)
            report(
                "| \(transcript.transcript.count) | \(samples) | \(format(Measure.median(result.overhead), digits: 3)) "
                    + "| \(format(Measure.percentile(result.overhead, 95), digits: 3)) "
                    + "| \(format(Measure.median(result.tokenCounting), digits: 3)) "
                    + "| \(format(Measure.median(result.generation), digits: 3)) | \(format(Measure.median(result.wall), digits: 3)) |"
            )
        }
        if let largest = sizes.max() {
            // What one copy-on-write copy of the conversation costs: the turn loop and the game copy it several
            // times per turn (see BENCHMARKS.md).
            let transcript = ConversationFixture.extend(played, to: largest).transcript
            let entry = transcript[transcript.count - 1]
            let copies = Measure.milliseconds(repetitions: 50) {
                var copy = transcript
                copy.append(entry)
                precondition(copy.count == transcript.count + 1)
            }
            report("")
            report(
                "One copy of the \(transcript.count)-entry transcript (a copy-on-write append to a shared array): "
                    + "\(format(Measure.median(copies), digits: 3)) ms.")
        }
        report("")
        guard let at5000 = medians[5_000], let at10 = medians[10] else { return }
        let ratio = at5000 / at10
        report(
            "Target: median ≤ 0.5 ms at 5,000 entries: \(format(at5000, digits: 3)) ms, \(verdict(at5000 <= 0.5))"
                + (at5000 > 0.5 ? " (by \(format(at5000 / 0.5, digits: 1))×)" : "") + ".")
        report(
            "Target: ≤ 1.5× from 10 to 5,000 entries: \(format(ratio, digits: 2))×, \(verdict(ratio <= 1.5))"
                + (ratio > 1.5 ? " (by \(format(ratio / 1.5, digits: 1))× over)" : "") + ".")
        report("")
    }

    /// What one size measured, in milliseconds per turn.
    struct Samples {
        var overhead: [Double] = []
        var tokenCounting: [Double] = []
        var generation: [Double] = []
        var wall: [Double] = []
    }

    /// Times `samples` turns (after a few to warm up) on a game restored with `transcript` as the NPC's
    /// conversation.
    static func measure(
        pack: ContentPack, npc: NPCID, transcript: AnnotatedTranscript, samples: Int
    ) async throws -> Samples {
        let world = pack.world
        guard let character = world.npcs[npc] else { throw BenchError("the pack has no NPC \(npc)") }
        // A 5,000-entry conversation (about 60,000 tokens by the scripted model's rule) does not fit the scripted
        // model's default 32,768-token window; a larger window lets the turn run instead of the context recovery.
        let model = TimedModel(
            ScriptedModel(npc: character, world: world, seed: 1, contextSize: 1 << 24), buffersStreams: true)
        let restored = RestoredConversations(npcs: [npc], pendingOffers: [:], load: { _ in transcript })
        let game = Game(state: pack.initialState, models: { _, _ in model }, restoring: restored)
        await game.perform("talk to \(character.name)") { _ in }
        guard let session = await game.session(of: npc) else { throw BenchError("no conversation with \(npc)") }
        let base = transcript.transcript
        var result = Samples()
        let clock = ContinuousClock()
        let warmup = 5
        for index in 0..<(warmup + samples) {
            session.transcript = base
            _ = model.take()
            let start = clock.now
            await game.perform(lines[index % lines.count]) { _ in }
            let wall = clock.now - start
            let totals = model.take()
            guard index >= warmup else { continue }
            guard session.transcript.count > base.count else { throw BenchError("a benchmark turn failed") }
            result.wall.append(wall.milliseconds)
            result.generation.append(totals.generation.milliseconds)
            result.tokenCounting.append(totals.tokenCounting.milliseconds)
            result.overhead.append((wall - totals.generation).milliseconds)
        }
        return result
    }

    /// A real conversation with the NPC: a dozen turns of the scripted model through the engine.
    static func playedConversation(pack: ContentPack, npc: NPCID) async throws -> AnnotatedTranscript {
        let game = Game(
            state: pack.initialState, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) })
        let name = pack.world.name(of: npc)
        await game.perform("talk to \(name)") { _ in }
        let questions = [
            "how much is the lantern?", "what do you sell?", "how much is the rope?", "do you have bread?",
            "tell me about the town", "how much are the boots?", "what is the price of the cloak?", "thanks",
        ]
        for line in questions + questions.reversed() { await game.perform(line) { _ in } }
        guard let annotated = await game.annotatedTranscripts[npc] else {
            throw BenchError("no conversation was played")
        }
        return annotated
    }
}
