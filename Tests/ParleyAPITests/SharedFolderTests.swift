import Foundation
import ParleyAPI
import ParleyHTTP
import ParleyJSON
import SaveGames
import Testing

/// What a game developer found when several games share a server and its save folder: a slot another game plays is
/// never written, saves name the game playing them, games are listed and left-idle ones ended, a full server says
/// when to try again, `Accept` is read by its quality values.
@Suite(.timeLimit(.minutes(10))) struct SharedFolderTests {
    typealias Fixture = HTTPAPITests.Fixture

    /// The bytes of a save file, to see that nothing wrote it.
    static func bytes(_ fixture: Fixture, slot: String) throws -> Data {
        try Data(contentsOf: try SaveGameStore(folder: fixture.folder).slotURL(slot))
    }

    @Test func aSaveIntoASlotAnotherGameIsPlayingIsRefusedAndWritesNothing() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let first = try await fixture.newGame()
            let second = try await fixture.newGame()
            _ = try await fixture.say(second, "talk to mira")
            _ = try await fixture.say(second, "how much is the lantern?")
            let (_, secondState, _) = try await fixture.call(.get, "/v1/games/\(second)")
            let slot = try #require(secondState?["slot"]?.stringValue)
            #expect(slot == "autosave-2")
            let before = try Self.bytes(fixture, slot: slot)

            for name in ["autosave-2", "Autosave 2"] {
                let (status, problem, _) = try await fixture.call(
                    .post, "/v1/games/\(first)/save", (["slot": .string(name)] as JSONValue).jsonString())
                #expect(status == 409)
                #expect(problem?["type"] == "urn:parley:problem:save-in-use")
                let detail = problem?["detail"]?.stringValue ?? ""
                #expect(detail.contains(second), "\(detail)")
            }
            // The same line typed in the game is refused too, and so is loading that slot.
            for line in ["save autosave-2", "load autosave-2"] {
                let events = try await fixture.say(first, line)
                #expect(events.map { $0["type"] } == ["problem"], "\(line): \(events)")
            }
            #expect(try Self.bytes(fixture, slot: slot) == before)
            // The other game's conversation is whole.
            let (_, transcript, _) = try await fixture.call(.get, "/v1/games/\(second)/transcript/mira")
            let conversation = transcript?.jsonString() ?? ""
            #expect(conversation.contains("how much is the lantern?"))
            // Its own slot, and a free one, take a save as before.
            let (own, _, _) = try await fixture.call(.post, "/v1/games/\(first)/save", #"{"slot": "autosave"}"#)
            #expect(own == 200)
        }
    }

    @Test func theSaveAnswerGivesTheSlotAsStoredAndTheSaveNamesItsGame() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let (status, saved, _) = try await fixture.call(
                .post, "/v1/games/\(game)/save", #"{"slot": "Before the Mill"}"#)
            #expect(status == 200)
            #expect(saved?["slot"] == "before-the-mill")
            let (_, stored, _) = try await fixture.call(.get, "/v1/saves/before-the-mill")
            #expect(stored?["slot"] == "before-the-mill")
            #expect(stored?["game"] == .null)
            let (_, playing, _) = try await fixture.call(.get, "/v1/saves/autosave")
            #expect(playing?["game"]?.stringValue == game)
            _ = try await fixture.call(.delete, "/v1/games/\(game)")
            let (_, after, _) = try await fixture.call(.get, "/v1/saves/autosave")
            #expect(after?["game"] == .null)
        }
    }

    @Test func theGamesAreListed() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let (_, empty, _) = try await fixture.call(.get, "/v1/games")
            #expect(empty?["games"] == .array([]))
            let first = try await fixture.newGame()
            let second = try await fixture.newGame()
            _ = try await fixture.say(second, "talk to mira")
            let (status, json, _) = try await fixture.call(.get, "/v1/games")
            #expect(status == 200)
            let games = json?["games"]?.arrayValue ?? []
            #expect(Set(games.compactMap { $0["id"]?.stringValue }) == [first, second])
            let listed = try #require(games.first { $0["id"]?.stringValue == second })
            #expect(listed["slot"] == "autosave-2" && listed["player"] == "Traveller")
            #expect(listed["location"]?["id"] == "market_square" && listed["talkingTo"]?["id"] == "mira")
            #expect(listed["listeners"] == 0)
        }
    }

    @Test func gamesLeftIdleAreSavedAndEndedButNotOnesInUse() async throws {
        try await HTTPAPITests.withFixture(configure: { $0.idleTimeout = .seconds(600) }) { fixture in
            let idle = try await fixture.newGame()
            // Before the last use of either game: a busy machine may take its time before the next lines run.
            let before = ContinuousClock.now
            _ = try await fixture.say(idle, "take apple")
            let listened = try await fixture.newGame()
            let listener = try await GameEventsTests.listen(fixture, listened)
            // Not yet idle for long enough: nothing ends.
            #expect(await fixture.games.endIdleGames(at: before + .seconds(599)) == [])
            #expect(await fixture.games.endIdleGames(at: .now + .seconds(601)) == [idle])
            let (status, problem, _) = try await fixture.call(.get, "/v1/games/\(idle)")
            #expect(status == 404 && problem?["type"] == "urn:parley:problem:game-ended")
            // Its game was saved, and continues from the save.
            let (loaded, json, _) = try await fixture.call(.post, "/v1/games", #"{"load": "autosave"}"#)
            #expect(loaded == 201)
            #expect(
                (json?["state"]?["player"]?["inventory"]?.arrayValue ?? []).contains { $0["id"] == "apple" })
            // The listened-to game ends once nobody listens.
            listener.cancel()
            var ended: [String] = []
            for _ in 0..<600 where !ended.contains(listened) {
                ended += await fixture.games.endIdleGames(at: .now + .seconds(601))
                if !ended.contains(listened) { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(ended.contains(listened))
        }
    }

    @Test func aFullServerSaysWhenToTryAgain() async throws {
        try await HTTPAPITests.withFixture(configure: { $0.maximumGames = 1 }) { fixture in
            _ = try await fixture.newGame()
            let (status, problem, response) = try await fixture.call(.post, "/v1/games", "{}")
            #expect(status == 503)
            #expect(problem?["type"] == "urn:parley:problem:too-many-games")
            #expect(response.headers["Retry-After"] == "30")
        }
    }

    @Test(arguments: [
        ("text/event-stream", true), ("text/event-stream;q=0, application/json", false),
        ("application/json;q=0.5, text/event-stream", true), ("application/json, text/event-stream;q=0.9", false),
        ("*/*", false), ("text/*", true), ("text/event-stream, application/json", true), ("application/json", false),
        ("TEXT/EVENT-STREAM; Q=1", true), ("text/event-stream;q=nonsense", false),
    ])
    func theAnswerIsStreamedWhenAcceptPrefersIt(accept: String, streams: Bool) async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let (status, _, response) = try await fixture.call(
                .post, "/v1/games/\(game)/input", #"{"text": "look"}"#, headers: ["Accept": accept])
            #expect(status == 200)
            let type = response.headers["Content-Type"] ?? ""
            #expect(type.hasPrefix(streams ? "text/event-stream" : "application/json"), "\(accept): \(type)")
        }
    }
}
