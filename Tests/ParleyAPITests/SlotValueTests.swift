import Foundation
import ParleyHTTP
import ParleyJSON
import SaveGames
import Testing

/// Slots reach the game from the API as values, never re-read as a command line: `{"slot": "a b"}` saves to the slot
/// `a b` as the save folder names it (`a-b`), never to `a` labelled `b`, and a slot with nothing to name a file by
/// (`"  "`) is refused with `400` and what a slot may hold, never saved to the default slot `save`.
@Suite(.timeLimit(.minutes(10))) struct SlotValueTests {
    typealias Fixture = HTTPAPITests.Fixture

    /// The save files in the folder, by name.
    static func files(_ fixture: Fixture) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)) ?? []
        return Set(names.filter { $0.hasSuffix(".parley") })
    }

    @Test func aSlotWithASpaceIsOneSlotNotASlotAndALabel() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let (status, saved, response) = try await fixture.call(.post, "/v1/games/\(game)/save", #"{"slot": "a b"}"#)
            #expect(status == 200, "\(response.bodyText)")
            #expect(saved?["slot"] == "a-b")
            let files = Self.files(fixture)
            #expect(files.contains("a-b.parley") && !files.contains("a.parley"), "\(files)")
            let (_, stored, _) = try await fixture.call(.get, "/v1/saves/a-b")
            let label = stored?["label"]?.stringValue ?? ""
            #expect(label != "b" && label.hasPrefix("Traveller in"), "\(label)")
            // Loaded by the same value, spaces and all.
            let (loaded, json, answer) = try await fixture.call(.post, "/v1/games", #"{"load": "a b"}"#)
            #expect(loaded == 201, "\(answer.bodyText)")
            #expect(json?["id"]?.stringValue != nil)
        }
    }

    @Test(arguments: ["  ", "\t", "...", "/", "-_-"])
    func aSlotWithNothingToNameItByIsRefusedAndWritesNothing(slot: String) async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let before = Self.files(fixture)
            let body = (["slot": .string(slot)] as JSONValue).jsonString()
            let (status, problem, response) = try await fixture.call(.post, "/v1/games/\(game)/save", body)
            #expect(status == 400, "\(response.bodyText)")
            #expect(response.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
            let detail = problem?["detail"]?.stringValue ?? ""
            #expect(detail.contains("letter or digit"), "\(detail)")
            #expect(Self.files(fixture) == before, "a save was written for \(slot.debugDescription)")
            #expect(!Self.files(fixture).contains("save.parley"))

            let load = (["load": .string(slot)] as JSONValue).jsonString()
            let (loadStatus, loadProblem, _) = try await fixture.call(.post, "/v1/games", load)
            #expect(loadStatus == 400)
            let loadDetail = loadProblem?["detail"]?.stringValue ?? ""
            #expect(loadDetail.contains("letter or digit"), "\(loadDetail)")
            // The game plays on.
            let events = try await fixture.say(game, "look")
            #expect(events.first?["type"] == "narration")
        }
    }
}
