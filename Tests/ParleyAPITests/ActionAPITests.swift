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

/// The game's actions over HTTP, as a game would use them: Oona's `openGate` arrives as an `action` event while her
/// line streams, the game answers with `POST /v1/games/{id}/actions/{callId}`, and she says the answer; an unanswered
/// call times out; while one game waits for its answer, another plays on.
@Suite(.timeLimit(.minutes(10))) struct ActionAPITests {
    /// A server on the shipped pack, its `openGate` changed by `change`, over a fresh save folder.
    final class Fixture: Sendable {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-act-\(UUID().uuidString)")
        let games: APIGames
        let server: HTTPServer
        let client: HTTPClient

        init(
            _ change: (inout GameAction) -> Void = { _ in }, models: Game.ModelProvider? = nil,
            speech: APISpeech? = nil, listening: APIListening? = nil
        ) throws {
            var pack = try ContentPack.load(
                from: APIGamesTests.root.appendingPathComponent("Content"), displayPath: "Content"
            ).get()
            var action = try #require(pack.world.actions["openGate"])
            change(&action)
            pack.world.actions["openGate"] = action
            var configuration = APIGames.Configuration(
                pack: pack, models: models ?? { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) },
                store: SaveGameStore(folder: folder))
            configuration.speech = speech
            configuration.listening = listening
            games = APIGames(configuration: configuration)
            server = try HTTPServer(
                configuration: HTTPServer.Configuration(timeouts: .all(.seconds(30))),
                router: APIRoutes.router(for: games))
            client = try HTTPClient()
        }

        func stop() async {
            await server.stop()
            await games.endAll()
            try? FileManager.default.removeItem(at: folder)
        }

        func call(_ method: HTTPMethod, _ path: String, _ body: String? = nil) async throws -> (Int, JSONValue?) {
            let headers: HTTPHeaders = body == nil ? [:] : ["Content-Type": "application/json"]
            let request = HTTPRequest(
                method: method, url: server.baseURL + path, headers: headers, body: body.map { Data($0.utf8) })
            let response = try await client.execute(request)
            return (response.status, try? JSONValue(parsing: Array(response.body)))
        }

        func newGame() async throws -> String {
            let (status, json) = try await call(.post, "/v1/games", "{}")
            #expect(status == 201)
            return try #require(json?["id"]?.stringValue)
        }

        func say(_ game: String, _ text: String) async throws -> [JSONValue] {
            let (status, json) = try await call(
                .post, "/v1/games/\(game)/input", (["text": .string(text)] as JSONValue).jsonString())
            #expect(status == 200, "\(text)")
            return json?["events"]?.arrayValue ?? []
        }

        /// A line whose events stream, read one by one (`serverSentEvents`).
        func stream(_ game: String, _ text: String) async throws -> HTTPStreamingResponse {
            let request = HTTPRequest.postJSON(
                server.baseURL + "/v1/games/\(game)/input",
                body: Data((["text": .string(text)] as JSONValue).jsonString().utf8),
                accept: "text/event-stream")
            let response = try await client.stream(request)
            #expect(response.status == 200)
            return response
        }
    }

    static func withFixture(
        _ change: (inout GameAction) -> Void = { _ in }, models: Game.ModelProvider? = nil, speech: APISpeech? = nil,
        listening: APIListening? = nil, _ body: (Fixture) async throws -> Void
    )
        async throws
    {
        let fixture = try Fixture(change, models: models, speech: speech, listening: listening)
        do {
            try await body(fixture)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    /// A game at the North Gate, talking to Oona.
    static func atTheGate(_ fixture: Fixture) async throws -> String {
        let game = try await fixture.newGame()
        _ = try await fixture.say(game, "n")
        _ = try await fixture.say(game, "talk to oona")
        return game
    }

    /// A time limit no busy machine reaches before the test answers: what is tested is the answer, not the clock.
    static let patient: @Sendable (inout GameAction) -> Void = { $0.timeoutSeconds = 3_600 }

    @Test func theGameAnswersAnActionEventAndTheNPCSaysTheAnswer() async throws {
        try await Self.withFixture(Self.patient) { fixture in
            let game = try await Self.atTheGate(fixture)
            let response = try await fixture.stream(game, "signal the gatehouse")
            var events = response.serverSentEvents.makeAsyncIterator()
            var action: JSONValue?
            while action == nil, let event = try await events.next() {
                if event.event == "action" { action = try JSONValue(parsing: event.data) }
            }
            let call = try #require(action)
            #expect(call["npc"] == ["id": "oona", "name": "Sergeant Oona Vell"])
            #expect(call["action"] == "openGate")
            #expect(call["arguments"] == ["gate": "north", "requestedBy": "Traveller"])
            #expect(call["await"] == true)
            #expect(call["timeoutSeconds"] == 3_600)
            let callID = try #require(call["callId"]?.stringValue)
            let answer = #"{"output": {"opened": true, "message": "The North Gate grinds open."}}"#
            // docs/openapi.json describes the event, and the answer the game sends.
            let document = try OpenAPITests.document()
            let event = try OpenAPITests.schema(["$ref": "#/components/schemas/Event"], in: document)
            #expect(event.validate(GeneratedContent(jsonValue: call)) == [])
            let answerSchema = try OpenAPITests.schema(["$ref": "#/components/schemas/ActionAnswer"], in: document)
            #expect(answerSchema.validate(try GeneratedContent(json: answer)) == [])
            #expect(answerSchema.validate(try GeneratedContent(json: #"{"output": 1, "error": "x"}"#)) != [])

            let (status, _) = try await fixture.call(.post, "/v1/games/\(game)/actions/\(callID)", answer)
            #expect(status == 204)
            var speech = ""
            var toolCall: JSONValue?
            var last: String?
            while let event = try await events.next() {
                let json = try JSONValue(parsing: event.data)
                if event.event == "speechEnded" { speech = json["text"]?.stringValue ?? "" }
                if event.event == "toolCall", json["tool"] == "openGate" { toolCall = json }
                last = event.event
            }
            #expect(last == "done")
            #expect(speech.contains("The North Gate grinds open."), "\(speech)")
            #expect(toolCall?["output"]?["status"] == "answered")
            #expect(toolCall?["output"]?["output"]?["opened"] == true)
            // An answer counts once.
            let (again, problem) = try await fixture.call(.post, "/v1/games/\(game)/actions/\(callID)", answer)
            #expect(again == 404)
            #expect(problem?["type"] == "urn:parley:problem:unknown-action-call")
        }
    }

    @Test func anUnansweredActionTimesOutAndItsLateAnswerIsRefused() async throws {
        try await Self.withFixture({ $0.timeoutSeconds = 0.05 }) { fixture in
            let game = try await Self.atTheGate(fixture)
            // Without a stream the client cannot answer in time: the line's events come once Oona has gone on.
            let events = try await fixture.say(game, "signal the gatehouse")
            let action = try #require(events.first { $0["type"] == "action" })
            #expect(action["timeoutSeconds"] == .double(0.05))
            let spoken = events.first { $0["type"] == "speechEnded" }?["text"]?.stringValue ?? ""
            #expect(spoken.contains("No answer."), "\(spoken)")
            #expect(!events.contains { $0["type"] == "problem" })
            let types = events.compactMap { $0["type"]?.stringValue }
            // The action event came when the call was made: before Oona spoke.
            #expect(types.firstIndex(of: "action") ?? .max < types.firstIndex(of: "speechBegan") ?? -1)
            let callID = try #require(action["callId"]?.stringValue)
            let (status, _) = try await fixture.call(
                .post, "/v1/games/\(game)/actions/\(callID)", #"{"output": {"opened": true}}"#)
            #expect(status == 404)
        }
    }

    @Test func whileOneGameWaitsForItsAnswerAnotherPlaysOn() async throws {
        try await Self.withFixture(Self.patient) { fixture in
            let waiting = try await Self.atTheGate(fixture)
            let response = try await fixture.stream(waiting, "signal the gatehouse")
            var events = response.serverSentEvents.makeAsyncIterator()
            var callID: String?
            while callID == nil, let event = try await events.next() {
                if event.event == "action" { callID = try JSONValue(parsing: event.data)["callId"]?.stringValue }
            }
            // The first game's line waits for the game's answer; a second game is served meanwhile.
            let other = try await fixture.newGame()
            _ = try await fixture.say(other, "talk to mira")
            let priced = try await fixture.say(other, "how much is the lantern?")
            #expect(priced.contains { $0["text"]?.stringValue?.contains("25 gold") == true })
            // Then the answer comes, and the first game goes on.
            let id = try #require(callID)
            let (status, _) = try await fixture.call(
                .post, "/v1/games/\(waiting)/actions/\(id)", #"{"error": "The winch is jammed."}"#)
            #expect(status == 204)
            var speech = ""
            while let event = try await events.next() {
                if event.event == "speechEnded" {
                    speech = try JSONValue(parsing: event.data)["text"]?.stringValue ?? ""
                }
            }
            #expect(speech.contains("The winch is jammed."), "\(speech)")
        }
    }

    @Test func aCallThatDoesNotFitIsRefusedAndReportedAndTheGameNeverHearsOfIt() async throws {
        let model = MockLanguageModel(replies: [
            .text("Halt."), .toolCall("openGate", arguments: #"{"gate": "south"}"#), .text("Hm."),
        ])
        try await Self.withFixture(models: { _, _ in model }) { fixture in
            let game = try await Self.atTheGate(fixture)
            let events = try await fixture.say(game, "open the gate")
            #expect(!events.contains { $0["type"] == "action" }, "\(events)")
            let toolCall = try #require(events.first { $0["type"] == "toolCall" && $0["tool"] == "openGate" })
            #expect(toolCall["output"]?["status"] == "refused")
            let refused = try #require(events.first { $0["type"] == "actionRefused" }, "\(events)")
            #expect(refused["npc"] == ["id": "oona", "name": "Sergeant Oona Vell"])
            #expect(refused["action"] == "openGate")
            #expect(refused["arguments"] == ["gate": "south"])
            let reasons = refused["reasons"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(reasons.first?.contains("$.gate") == true, "\(reasons)")
            let types = events.compactMap { $0["type"]?.stringValue }
            #expect(types.firstIndex(of: "toolCall") ?? .max < types.firstIndex(of: "actionRefused") ?? -1)
            // Each is an Event as docs/openapi.json describes it.
            let document = try OpenAPITests.document()
            let schema = try OpenAPITests.schema(["$ref": "#/components/schemas/Event"], in: document)
            #expect(schema.validate(GeneratedContent(jsonValue: refused)) == [])
            // Reported as a refused offer is: a feedback report of the game's.
            let (status, feedback) = try await fixture.call(.get, "/v1/games/\(game)/feedback")
            #expect(status == 200)
            let kinds = (feedback?["reports"]?.arrayValue ?? []).map { $0["context"]?["kind"] }
            #expect(kinds == ["refusedAction"], "\(String(describing: feedback))")
        }
    }

    @Test(arguments: [
        ("{}", 400), (#"{"output": 1, "error": "x"}"#, 400), (#"{"error": " "}"#, 400), (#"{"error": 3}"#, 400),
        (#"{"outcome": 1}"#, 400), ("[1]", 400), ("{nope", 400), (#"{"output": null}"#, 404),
    ])
    func answersThatCannotBeTakenAreProblems(body: String, status: Int) async throws {
        try await Self.withFixture { fixture in
            let game = try await fixture.newGame()
            let (answered, problem) = try await fixture.call(.post, "/v1/games/\(game)/actions/0123456789abcdef", body)
            #expect(answered == status)
            #expect(problem?["detail"]?.stringValue?.isEmpty == false)
            let (unknownGame, _) = try await fixture.call(.post, "/v1/games/nope/actions/x", #"{"output": 1}"#)
            #expect(unknownGame == 404)
        }
    }
}
