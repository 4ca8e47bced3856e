import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ParleyAPI
import ParleyEngine
import ParleyHTTP
import ParleyJSON
import ParleyServer
import SaveGames
import ScriptedModel
import Testing

/// The game API over real HTTP, as a game would use it: an `HTTPServer` on loopback serving `APIRoutes`, called with
/// the project's libcurl client. No test looks inside the server; each speaks HTTP only.
@Suite(.timeLimit(.minutes(10))) struct HTTPAPITests {
    /// A server over a fresh save folder, and a client for it.
    final class Fixture: Sendable {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-http-\(UUID().uuidString)")
        let games: APIGames
        let server: HTTPServer
        let client: HTTPClient

        init(
            models: Game.ModelProvider? = nil, maximumBody: Int = 64 * 1024, allowedOrigins: [String] = [],
            configure: (inout APIGames.Configuration) -> Void = { _ in }
        ) throws {
            let pack = try ContentPack.load(
                from: APIGamesTests.root.appendingPathComponent("Content"), displayPath: "Content"
            ).get()
            var gamesConfiguration = APIGames.Configuration(
                pack: pack,
                models: models ?? { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) },
                store: SaveGameStore(folder: folder))
            configure(&gamesConfiguration)
            games = APIGames(configuration: gamesConfiguration)
            // Ten minutes for a client's steps, so that a loaded machine only slows a test; 30 s to stop.
            var configuration = HTTPServer.Configuration(
                timeouts: .init(
                    header: .seconds(600), body: .seconds(600), idle: .seconds(600), write: .seconds(600),
                    linger: .seconds(30), shutdownGrace: .seconds(30)))
            configuration.limits.maximumBodySize = maximumBody
            configuration.allowedOrigins = allowedOrigins
            server = try HTTPServer(configuration: configuration, router: APIRoutes.router(for: games))
            client = try HTTPClient()
        }

        func stop() async {
            await server.stop()
            await games.endAll()
            try? FileManager.default.removeItem(at: folder)
        }

        func url(_ path: String) -> String { server.baseURL + path }

        /// A request, and its JSON answer (`nil` when the body is not JSON).
        func call(
            _ method: HTTPMethod, _ path: String, _ body: String? = nil, headers: HTTPHeaders = [:]
        ) async throws
            -> (status: Int, json: JSONValue?, response: HTTPResponse)
        {
            var all = headers
            if body != nil { all["Content-Type"] = "application/json" }
            let request = HTTPRequest(method: method, url: url(path), headers: all, body: body.map { Data($0.utf8) })
            let response = try await client.execute(request)
            return (response.status, try? JSONValue(parsing: Array(response.body)), response)
        }

        /// Starts a new game and returns its id.
        func newGame() async throws -> String {
            let (status, json, _) = try await call(.post, "/v1/games", "{}")
            #expect(status == 201)
            return try #require(json?["id"]?.stringValue)
        }

        /// Sends a line and returns its events.
        func say(_ game: String, _ text: String) async throws -> [JSONValue] {
            let body = (["text": .string(text)] as JSONValue).jsonString()
            let (status, json, _) = try await call(.post, "/v1/games/\(game)/input", body)
            #expect(status == 200, "\(text)")
            return json?["events"]?.arrayValue ?? []
        }
    }

    static func withFixture(
        models: Game.ModelProvider? = nil, maximumBody: Int = 64 * 1024, allowedOrigins: [String] = [],
        configure: (inout APIGames.Configuration) -> Void = { _ in }, _ body: (Fixture) async throws -> Void
    ) async throws {
        let fixture = try Fixture(
            models: models, maximumBody: maximumBody, allowedOrigins: allowedOrigins, configure: configure)
        do {
            try await body(fixture)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    /// The shipped quest, as `PlayTests` plays it in the terminal.
    static let walkthrough = [
        "look", "e", "talk to brannoc", "hello", "I want to sell my rusty sword", "accept", "bye", "w", "talk to mira",
        "what do you sell?", "how much is the lantern?", "would you take 15?", "accept", "bye", "i", "s", "s", "down",
        "take locket", "up", "n", "e", "talk to aurelio", "give locket", "bye",
    ]

    @Test func theShippedQuestIsWonOverHTTPAlone() async throws {
        try await Self.withFixture { fixture in
            let (status, health, _) = try await fixture.call(.get, "/v1/health")
            #expect(status == 200)
            #expect(health?["status"] == "ok")
            let game = try await fixture.newGame()
            var all: [JSONValue] = []
            for line in Self.walkthrough { all += try await fixture.say(game, line) }
            let types = all.compactMap { $0["type"]?.stringValue }
            #expect(types.contains("goalReached"))
            #expect(types.filter { $0 == "trade" }.count == 2)
            #expect(all.contains { $0["type"] == "gave" && $0["item"]?["id"] == "moonpetal_locket" })
            let (_, state, _) = try await fixture.call(.get, "/v1/games/\(game)")
            #expect(state?["goal"]?["reached"] == true)
            #expect(state?["player"]?["gold"] == 2)
            #expect(state?["location"]?["id"] == "curio_house")
            #expect(state?["talkingTo"] == .null)
        }
    }

    @Test func badRequestsGetProblemsThatSayWhatToDo() async throws {
        try await Self.withFixture(maximumBody: 4_096) { fixture in
            let game = try await fixture.newGame()
            let cases: [(HTTPMethod, String, String?, Int)] = [
                (.post, "/v1/games", "{not json", 400),
                (.post, "/v1/games", #"{"load": 7}"#, 400),
                (.post, "/v1/games", #"{"load": "nowhere"}"#, 404),
                (.get, "/v1/games/no-such-game", nil, 404),
                (.post, "/v1/games/no-such-game/input", #"{"text": "hello"}"#, 404),
                (.post, "/v1/games/\(game)/input", #"{"words": "hello"}"#, 400),
                (.post, "/v1/games/\(game)/input", "[]", 400),
                (
                    .post, "/v1/games/\(game)/input",
                    (["text": .string(String(repeating: "a", count: 2_001))] as JSONValue).jsonString(), 413
                ),
                (
                    .post, "/v1/games/\(game)/input",
                    (["text": .string(String(repeating: "a", count: 5_000))] as JSONValue).jsonString(), 413
                ),
                (.post, "/v1/games/\(game)/save", #"{}"#, 400),
                (.get, "/v1/games/\(game)/transcript/mira", nil, 404),
                (.get, "/v1/nothing-here", nil, 404),
                (.delete, "/v1/games/no-such-game", nil, 404),
            ]
            for (method, path, body, expected) in cases {
                let (status, json, response) = try await fixture.call(method, path, body)
                #expect(status == expected, "\(method) \(path) \(body ?? "")")
                #expect(response.headers["Content-Type"]?.hasPrefix("application/problem+json") == true, "\(path)")
                #expect((json?["detail"]?.stringValue ?? "").count > 10, "\(path): \(response.bodyText)")
                #expect(json?["status"]?.intValue == expected)
            }
            // The game is still there and plays.
            let events = try await fixture.say(game, "look")
            #expect(events.first?["type"] == "narration")
        }
    }

    @Test func eventsStreamAsServerSentEventsAndEndWithDone() async throws {
        try await Self.withFixture { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            let request = HTTPRequest.postJSON(
                fixture.url("/v1/games/\(game)/input"), body: Data(#"{"text": "how much is the lantern?"}"#.utf8),
                accept: "text/event-stream")
            let response = try await fixture.client.stream(request)
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"]?.hasPrefix("text/event-stream") == true)
            var names: [String] = []
            var speech = ""
            for try await event in response.serverSentEvents {
                names.append(event.event ?? "")
                let json = try JSONValue(parsing: event.data)
                #expect(json["type"]?.stringValue == event.event || event.event == "done")
                if event.event == "speech" { speech += json["text"]?.stringValue ?? "" }
            }
            #expect(names.last == "done")
            #expect(names.contains("speechBegan") && names.contains("speechEnded") && names.contains("toolCall"))
            #expect(speech.contains("25 gold"))
        }
    }

    @Test func aClientThatLeavesMidStreamDoesNotTakeTheTurnBack() async throws {
        try await Self.withFixture { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            let request = HTTPRequest.postJSON(
                fixture.url("/v1/games/\(game)/input"), body: Data(#"{"text": "how much is the rope?"}"#.utf8),
                accept: "text/event-stream")
            let response = try await fixture.client.stream(request)
            for try await _ in response.serverSentEvents { break }
            response.cancel()
            // The next line waits for the first to finish: the turn is in the conversation.
            _ = try await fixture.say(game, "thanks")
            let (status, json, _) = try await fixture.call(.get, "/v1/games/\(game)/transcript/mira")
            #expect(status == 200)
            let transcript = try Transcript(json: try #require(json).jsonString())
            #expect(transcript.description.contains("how much is the rope?"))
        }
    }

    @Test func transcriptsAreApplesJSONAndAnnotatedOnRequest() async throws {
        try await Self.withFixture { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            _ = try await fixture.say(game, "how much is the lantern?")
            let (_, plain, _) = try await fixture.call(.get, "/v1/games/\(game)/transcript/mira")
            #expect(plain?["type"] == "FoundationModels.Transcript")
            let decoded = try Transcript(json: try #require(plain).jsonString())
            #expect(decoded.count >= 5)
            let (_, annotated, _) = try await fixture.call(.get, "/v1/games/\(game)/transcript/mira?annotated=1")
            #expect(annotated?["annotations"]?["npc"] == "mira")
            #expect(annotated?["transcript"]?["type"] == "FoundationModels.Transcript")
            // A value docs/openapi.json does not list is refused, not read as "no" (found by schemathesis).
            for value in ["AAA", "", "TRUE", "2"] {
                let (status, problem, _) = try await fixture.call(
                    .get, "/v1/games/\(game)/transcript/mira?annotated=\(value)")
                #expect(status == 400, "annotated=\(value)")
                let detail = problem?["detail"]?.stringValue ?? ""
                #expect(detail.contains("annotated"), "\(detail)")
            }
            let (_, no, _) = try await fixture.call(.get, "/v1/games/\(game)/transcript/mira?annotated=0")
            #expect(no?["type"] == "FoundationModels.Transcript")
        }
    }

    @Test func aRefusedOfferIsAnEventAndItsReportIsServed() async throws {
        // A model that offers the lantern for 1 gold, which Mira's rules refuse.
        let model = MockLanguageModel { request in
            let offered = request.transcript.contains { if case .toolOutput = $0 { true } else { false } }
            return offered
                ? .text("Alas.")
                : .toolCall("offerTrade", arguments: #"{"action":"sell","item":"lantern","quantity":1,"price":1}"#)
        }
        try await Self.withFixture(models: { _, _ in model }) { fixture in
            let game = try await fixture.newGame()
            let events = try await fixture.say(game, "talk to mira")
            let refused = try #require(events.first { $0["type"] == "offerRefused" })
            #expect(refused["npc"]?["id"] == "mira")
            #expect((refused["reasons"]?.arrayValue ?? []).isEmpty == false)
            let call = try #require(events.first { $0["type"] == "toolCall" })
            #expect(call["tool"] == "offerTrade")
            let (status, json, _) = try await fixture.call(.get, "/v1/games/\(game)/feedback")
            #expect(status == 200)
            let reports = try #require(json?["reports"]?.arrayValue)
            #expect(reports.count == 1)
            #expect(reports.first?["sentiment"] == "negative")
        }
    }

    @Test func theInspectorIsServedBesideTheGames() async throws {
        try await Self.withFixture { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            let (_, _, page) = try await fixture.call(.get, "/inspect")
            #expect(page.status == 200)
            #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(page.bodyText.contains("href=\"/inspect/saves/autosave/npcs/mira\""), "\(page.bodyText)")
            let (status, save, _) = try await fixture.call(.get, "/v1/saves/autosave")
            #expect(status == 200)
            #expect(save?["npcs"]?[0]?["id"] == "mira")
        }
    }

    @Test func savesAreListedAndADeletedGameIsGone() async throws {
        try await Self.withFixture { fixture in
            let game = try await fixture.newGame()
            let (status, saved, _) = try await fixture.call(
                .post, "/v1/games/\(game)/save", #"{"slot": "before-the-mill"}"#)
            #expect(status == 200)
            #expect(saved?["slot"] == "before-the-mill")
            let (_, list, _) = try await fixture.call(.get, "/v1/saves")
            let slots = (list?["saves"]?.arrayValue ?? []).compactMap { $0["slot"]?.stringValue }
            #expect(slots.contains("before-the-mill") && slots.contains("autosave"))
            let (deleted, _, _) = try await fixture.call(.delete, "/v1/games/\(game)")
            #expect(deleted == 204)
            let (gone, problem, _) = try await fixture.call(.get, "/v1/games/\(game)")
            #expect(gone == 404)
            #expect(problem?["type"] == "urn:parley:problem:game-ended")
            let (never, unknown, _) = try await fixture.call(.get, "/v1/games/never-was")
            #expect(never == 404)
            #expect(unknown?["type"] == "urn:parley:problem:unknown-game")
            let (loaded, json, _) = try await fixture.call(.post, "/v1/games", #"{"load": "before-the-mill"}"#)
            #expect(loaded == 201)
            #expect(json?["state"]?["location"]?["id"] == "market_square")
        }
    }

    @Test func anNPCRemembersTheTradeAndTheNameAfterItsGameIsLoadedAgain() async throws {
        try await Self.withFixture { fixture in
            let game = try await fixture.newGame()
            for line in ["talk to mira", "my name is Wren", "I want to buy the rope", "accept"] {
                _ = try await fixture.say(game, line)
            }
            let (saved, _, _) = try await fixture.call(.post, "/v1/games/\(game)/save", #"{"slot": "rope"}"#)
            #expect(saved == 200)
            let (deleted, _, _) = try await fixture.call(.delete, "/v1/games/\(game)")
            #expect(deleted == 204)
            let (loaded, json, _) = try await fixture.call(.post, "/v1/games", #"{"load": "rope"}"#)
            #expect(loaded == 201)
            // The player is still talking to Mira, and she remembers.
            #expect(json?["state"]?["talkingTo"]?["id"] == "mira", "\(String(describing: json))")
            let again = try #require(json?["id"]?.stringValue)
            func said(_ events: [JSONValue]) -> String {
                events.filter { $0["type"] == "speech" }.compactMap { $0["text"]?.stringValue }.joined()
            }
            let bought = said(try await fixture.say(again, "remind me what I bought off you?"))
            #expect(bought.contains("Coil of Rope"), "\(bought)")
            let name = said(try await fixture.say(again, "what's my name?"))
            #expect(name.contains("Wren"), "\(name)")
        }
    }
}
