import ContentPacks
import Foundation
import GameWorld
import LLMTestSupport
import LanguageModels
import OpenAICompatible
import ParleyJSON
import ScriptedModel
import Synchronization
import Testing

@testable import ParleyEngine
@testable import ParleyEvaluation

/// Every turn is recorded; replays run the recorded inputs against a model from the same state and conversation.
@Suite struct ReplayTests {
    static let lines = [
        "e", "talk to brannoc", "hello", "I want to sell my rusty sword", "accept", "bye", "w", "talk to mira",
        "what do you sell?", "how much is the lantern?", "would you take 15?", "accept", "tell me about the old mill",
        "bye",
    ]

    static func scripted(seed: UInt64 = 1) -> Game.ModelProvider {
        { npc, world in ScriptedModel(npc: npc, world: world, seed: seed) }
    }

    func recordedGame() async throws -> [TurnRecording] {
        let game = Game(state: try shippedPack().initialState, models: Self.scripted())
        let screen = Screen()
        for line in Self.lines { await game.perform(line, output: screen.record) }
        return await game.recordings
    }

    @Test func everyTurnIsRecordedWithItsContextStateAndModel() async throws {
        let recordings = try await recordedGame()
        #expect(recordings.count == 12)  // every line said to an NPC, events included
        let sale = try #require(recordings.first { $0.input.description.contains("sell my rusty sword") })
        #expect(sale.npc == "brannoc")
        #expect(sale.modelID == "scripted")
        #expect(sale.context["gold"] == "14")
        #expect(sale.stateBefore.player.gold == 14)
        #expect(sale.toolCalls.contains { $0.hasPrefix("offerTrade") })
        #expect(sale.responseText?.isEmpty == false)
        #expect(sale.totalMilliseconds >= 0)
        // The JSON form round-trips.
        for recording in recordings {
            #expect(try TurnRecording(jsonValue: try JSONValue(parsing: recording.jsonValue.jsonString())) == recording)
        }
    }

    @Test func replayingAgainstTheSameModelReportsNoDifferences() async throws {
        let recordings = try await recordedGame()
        let report = await Replay.run(recordings, pack: try shippedPack(), models: Self.scripted())
        #expect(report.summary == "12 turns: 12 same, 0 changed, 0 failed")
    }

    /// A replay is bounded in time: its deadline is asked before each turn, and once it passed the replay answers with
    /// the turns replayed so far and says it stopped early. The deadline here is a counter, not a clock.
    @Test func aReplayStopsAtItsDeadlineWithWhatItReplayed() async throws {
        let recordings = try await recordedGame()
        let asked = Mutex(0)
        let afterFive = Replay.Deadline {
            asked.withLock { count in
                count += 1
                return count > 5
            }
        }
        let report = await Replay.run(recordings, pack: try shippedPack(), models: Self.scripted(), until: afterFive)
        #expect(report.turns.map(\.number) == [1, 2, 3, 4, 5])
        #expect(report.turns.allSatisfy { $0.status == .same })
        #expect(report.stoppedEarly)
        #expect(report.notReplayed == 7)
        #expect(report.summary == "5 of 12 turns (stopped at the time limit): 5 same, 0 changed, 0 failed")
        #expect(asked.withLock { $0 } == 6)

        let none = await Replay.run(recordings, pack: try shippedPack(), models: Self.scripted(), until: .after(.zero))
        #expect(none.turns.isEmpty && none.stoppedEarly && none.notReplayed == 12)
        let whole = await Replay.run(recordings, pack: try shippedPack(), models: Self.scripted(), until: .never)
        #expect(whole.turns.count == 12 && !whole.stoppedEarly && whole.notReplayed == 0)
    }

    /// A conversation long enough to be trimmed, replayed against the same scripted model: each turn sees the
    /// working transcript it was taken with, trims and all, so nothing changes from the first trim on.
    @Test func aReplayRecreatesTheTrimsItRecorded() async throws {
        let small: Game.ModelProvider = { npc, world in
            ScriptedModel(npc: npc, world: world, seed: 1, contextSize: 1_200)
        }
        let game = Game(state: try shippedPack().initialState, models: small)
        await game.perform("talk to mira", output: { _ in })
        for turn in 1...40 {
            let line = turn % 3 == 0 ? "how much is the lantern?" : "tell me about the market, friend, turn \(turn)"
            await game.perform(line, output: { _ in })
        }
        let recordings = await game.recordings
        let trimmed = recordings.filter { $0.trim != nil }
        try #require(trimmed.count >= 2, "the conversation was trimmed more than once")
        #expect(trimmed.allSatisfy { $0.trim?.kept != nil })
        // The kept count survives the recording's JSON, as a save and an export keep it.
        let reread = try recordings.map {
            try TurnRecording(jsonValue: try JSONValue(parsing: $0.jsonValue.jsonString()))
        }
        for recordings in [recordings, reread] {
            let report = await Replay.run(recordings, pack: try shippedPack(), models: small)
            #expect(report.changed == 0 && report.failed == 0, "\(report.summary)")
            let first = report.turns.first { $0.status != .same }
            #expect(first == nil, "\(String(describing: first))")
        }
    }

    @Test func replayingAgainstChangedRulesReportsExactlyTheChangedTurns() async throws {
        let recordings = try await recordedGame()
        // Change one of Mira's lines: only the turn that said it may change.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Content")
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "json", !url.path.contains("/schema/") else { continue }
            files[String(url.path.dropFirst(root.path.count + 1))] = try String(contentsOf: url, encoding: .utf8)
        }
        let mira = try #require(files["npcs/mira.json"])
        #expect(mira.contains("Done! Shake on it."))
        files["npcs/mira.json"] = mira.replacingOccurrences(of: "Done! Shake on it.", with: "Sold! Shake on it.")
        let changedPack = try ContentPack.load(files: files).get()
        let report = await Replay.run(recordings, pack: changedPack, models: Self.scripted())
        let changed = report.turns.filter { $0.status == .changed }
        #expect(changed.map(\.npc) == ["mira"])
        #expect(changed.first?.recordedText.hasPrefix("Done! Shake on it.") == true)
        #expect(changed.first?.replayedText.hasPrefix("Sold! Shake on it.") == true)
        #expect(report.failed == 0)
    }

    @Test func aDifferentSeedCanChangeTheVariants() async throws {
        let recordings = try await recordedGame()
        let report = await Replay.run(recordings, pack: try shippedPack(), models: Self.scripted(seed: 99))
        #expect(report.turns.count == 12)
        #expect(report.failed == 0)
        #expect(report.changed > 0)
    }
}

@Suite(
    .serialized, .enabled(if: LlamaServerProcess.testsEnabled, Comment(rawValue: LlamaServerProcess.howToEnable)),
    .timeLimit(.minutes(10)), .turnTimeout(.seconds(3_600)))
struct LlamaReplayTests {
    @Test func aScriptedSessionReplaysAgainstARealModel() async throws {
        let game = Game(state: try shippedPack().initialState, models: ReplayTests.scripted())
        let screen = Screen()
        for line in ["talk to mira", "what do you sell?", "how much is the lantern?", "bye"] {
            await game.perform(line, output: screen.record)
        }
        let recordings = await game.recordings
        try await LlamaServerProcess.with(contextSize: 4096) { server in
            let backend = try await OpenAICompatibleLanguageModel.connect(.init(baseURL: server.baseURL, apiKey: nil))
            // Bounded answers, as the game gives slow models: unbounded, a 135M model can write until its window
            // is full, minutes per turn on two cores.
            let report = await Replay.run(
                recordings, pack: try shippedPack(), models: { _, _ in backend },
                options: GenerationOptions(maximumResponseTokens: 32))
            #expect(report.turns.count == recordings.count)
            // A 135M model does not say what the scripted model said; it runs, answers and is compared.
            #expect(report.changed + report.same == report.turns.count, "\(report.turns.map(\.replayedText))")
            print("replay against llama-server: \(report.summary)")
        }
    }
}
