import Foundation
import LLMTestSupport
import ParleyJSON
import Testing

/// The shipped quest, piped through `parley play --model` against the real SmolLM2 on llama-server, with grounded
/// voicing: the planner decides every turn, so the quest is won whatever the model says, and the save's
/// recordings say of every NPC line whether it was voiced or fell back, and why. What the model says is never
/// checked.
@Suite(
    .serialized, .enabled(if: LlamaServerProcess.testsEnabled, Comment(rawValue: LlamaServerProcess.howToEnable)),
    .timeLimit(.minutes(10)))
struct LlamaPlaythroughTests {
    @Test func theShippedQuestIsWonWithGroundedVoicing() async throws {
        try await LlamaServerProcess.with(contextSize: 2048, parallel: 1) { server in
            let folder = PlayTests.Folder()
            let run = try await runParley(
                ["play", "--saves", folder.url.path, "--name", "Ada", "--model", server.baseURL],
                input: PlayTests.walkthrough)
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("You sell 1 Rusty Sword for 8 gold."), "\(run.out)")
            #expect(run.out.contains("You buy 1 Brass Lantern for 20 gold."), "\(run.out)")
            #expect(run.out.contains("*** You did it:"), "\(run.out)")
            #expect(!run.out.contains("did not answer"), "\(run.out)")

            let file = folder.url.appendingPathComponent("recordings.json").path
            let export = try await runParley(["recordings", "export", "autosave", "--saves", folder.url.path, "--out", file])
            #expect(export.status == 0, "\(export.err)")
            let recordings = try JSONValue(parsing: Array(Data(contentsOf: URL(fileURLWithPath: file)))).arrayValue ?? []
            let spoken = recordings.filter { $0["model"]?["id"]?.stringValue != "beat" }
            #expect(spoken.count >= 10)
            var outcomes: [String: Int] = [:]
            for recording in spoken {
                let voicing = try #require(recording["voicing"], "a turn without its voicing: \(recording)")
                #expect(voicing["mode"]?.stringValue == "grounded")
                let outcome = try #require(voicing["outcome"]?.stringValue)
                #expect(["voiced", "regenerated", "partlyVoiced", "fellBack"].contains(outcome))
                if outcome == "fellBack" || outcome == "partlyVoiced" {
                    #expect(["deadline", "check", "error"].contains(voicing["reason"]?.stringValue ?? ""))
                }
                #expect(voicing["planned"]?.stringValue?.isEmpty == false)
                #expect(recording["falseClaims"]?.arrayValue?.isEmpty ?? true)
                outcomes[outcome + (voicing["reason"]?.stringValue.map { ":" + $0 } ?? ""), default: 0] += 1
            }
            print("llama-server playthrough, grounded: \(outcomes.sorted { $0.key < $1.key })")
        }
    }
}
