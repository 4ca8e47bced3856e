import Foundation
import HTTPTestSupport
import LanguageModels
import ParleyAPI
import ParleyHTTP
import ParleyJSON
import Testing

/// Listening to a game (`GET /v1/games/{id}/events`): every event, whoever caused it, to any number of listeners,
/// numbered so that a listener that reconnects with `Last-Event-ID` loses none; heartbeats while nothing happens.
@Suite(.timeLimit(.minutes(10))) struct GameEventsTests {
    typealias Fixture = HTTPAPITests.Fixture

    /// An event as a listener heard it.
    struct Heard: Equatable, CustomStringConvertible {
        var id: String?
        var type: String
        var json: JSONValue
        var description: String { "\(id ?? "-") \(type)" }
    }

    /// Opens a listener; it is registered when this returns (the server answered its head).
    static func listen(
        _ fixture: Fixture, _ game: String, lastEventID: String? = nil
    ) async throws
        -> HTTPStreamingResponse
    {
        var headers: HTTPHeaders = ["Accept": "text/event-stream"]
        if let lastEventID { headers["Last-Event-ID"] = lastEventID }
        let response = try await fixture.client.stream(
            HTTPRequest(method: .get, url: fixture.url("/v1/games/\(game)/events"), headers: headers))
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("text/event-stream") == true)
        return response
    }

    /// Reads a listener's events until `ended`, or until `count` were read.
    static func collect(_ response: HTTPStreamingResponse, count: Int = .max) -> Task<[Heard], any Error> {
        Task {
            var heard: [Heard] = []
            for try await event in response.serverSentEvents {
                heard.append(Heard(id: event.id, type: event.event ?? "", json: try JSONValue(parsing: event.data)))
                if event.event == "ended" || heard.count == count { break }
            }
            return heard
        }
    }

    /// Runs what a game does from several sides: a line typed, a line said to an NPC directly, a pushed state. Returns
    /// every event the answers held, in order.
    static func play(_ fixture: Fixture, _ game: String, lines: [String]) async throws -> [JSONValue] {
        var events: [JSONValue] = []
        for line in lines {
            events += try await fixture.say(game, line)
        }
        let (_, direct, _) = try await fixture.call(.post, "/v1/games/\(game)/npcs/oona/say", #"{"text": "hello"}"#)
        events += direct?["events"]?.arrayValue ?? []
        let (_, pushed, _) = try await fixture.call(.patch, "/v1/games/\(game)/state", #"{"player": {"gold": 50}}"#)
        events += pushed?["events"]?.arrayValue ?? []
        return events
    }

    @Test func twoListenersHearTheSameEventsWhoeverCausedThem() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let first = Self.collect(try await Self.listen(fixture, game))
            let second = Self.collect(try await Self.listen(fixture, game))
            let answered = try await Self.play(fixture, game, lines: ["talk to mira", "how much is the rope?"])
            let (deleted, _, _) = try await fixture.call(.delete, "/v1/games/\(game)")
            #expect(deleted == 204)
            let heard = try await first.value
            #expect(try await second.value == heard)
            #expect(heard.last?.type == "ended")
            // Every event the answers held, in their order, each numbered one after the other.
            // (A reader gives an event without an id of its own the last id it saw, as `EventSource` does.)
            let numbered = heard.filter { $0.type != "ended" }
            #expect(numbered.map(\.json) == answered)
            // (Events 1 and 2 are the new game's introduction and first look.)
            #expect(numbered.compactMap { $0.id.flatMap(Int.init) } == Array(numbered.indices.map { $0 + 3 }))
            #expect(numbered.contains { $0.type == "speechEnded" && $0.json["npc"]?["id"] == "oona" })
            #expect(numbered.contains { $0.type == "stateChanged" && $0.json["field"] == "gold" })
            #expect(numbered.allSatisfy { $0.json["type"]?.stringValue == $0.type })
            // Each is an Event as docs/openapi.json describes it.
            let document = try OpenAPITests.document()
            let schema = try OpenAPITests.schema(["$ref": "#/components/schemas/Event"], in: document)
            for event in heard {
                let violations = schema.validate(try GeneratedContent(json: event.json.jsonString()))
                #expect(violations.isEmpty, "\(event): \(violations)")
            }
        }
    }

    @Test func aListenerThatReconnectsWithLastEventIDLosesNone() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let steady = Self.collect(try await Self.listen(fixture, game))
            let leaving = try await Self.listen(fixture, game)
            _ = try await fixture.say(game, "talk to mira")
            let before = try await Self.collect(leaving, count: 3).value
            leaving.cancel()
            let last = try #require(before.last?.id)
            // Meanwhile the game goes on.
            _ = try await Self.play(fixture, game, lines: ["how much is the lantern?"])
            let back = Self.collect(try await Self.listen(fixture, game, lastEventID: last))
            _ = try await fixture.say(game, "bye")
            _ = try await fixture.call(.delete, "/v1/games/\(game)")
            let all = try await steady.value
            #expect(before + (try await back.value) == all)
            #expect(all.count > 10)
        }
    }

    @Test func eventsNoLongerKeptAreCountedThenTheKeptOnesFollow() async throws {
        try await HTTPAPITests.withFixture(configure: { $0.eventBacklog = 5 }) { fixture in
            let game = try await fixture.newGame()
            let answered = try await Self.play(fixture, game, lines: ["talk to mira", "how much is the rope?"])
            #expect(answered.count > 5)
            let late = Self.collect(try await Self.listen(fixture, game, lastEventID: "2"))
            _ = try await fixture.call(.delete, "/v1/games/\(game)")
            let heard = try await late.value
            let total = answered.count + 2  // and the new game's introduction and first look, events 1 and 2
            #expect(heard.first?.type == "eventsMissed")
            #expect(heard.first?.json["count"]?.intValue == total - 2 - 5)
            #expect(heard.dropFirst().prefix(5).map(\.json) == Array(answered.suffix(5)))
            #expect(heard.dropFirst().prefix(5).compactMap(\.id) == (total - 4...total).map(String.init))
            #expect(heard.last?.type == "ended")
        }
    }

    @Test func aRawListenerGetsNumberedEventsAndHeartbeats() async throws {
        try await HTTPAPITests.withFixture(configure: { $0.heartbeatInterval = .milliseconds(20) }) { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            let socket = try RawClient(port: fixture.server.port)
            #expect(
                await socket.send(
                    "GET /v1/games/\(game)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                        + "Last-Event-ID: 2\r\n\r\n"))
            let text = await socket.read(untilText: ": heartbeat\n\n")
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
            #expect(text.contains("Content-Type: text/event-stream\r\n"))
            #expect(text.contains("Cache-Control: no-cache\r\n"))
            #expect(text.contains(": listening to game \(game)\n\n"))
            // Event 3 is the first after the one it had (the first look): the first words with Mira.
            #expect(
                text.contains("id: 3\nevent: thinking\ndata: {\"type\":\"thinking\",\"npc\":{\"id\":\"mira\""),
                "\(text)")
            #expect(!text.contains("id: 2\n"))
            #expect(text.contains(": heartbeat\n\n"))
        }
    }

    @Test func aListenerHearsTheGameEndWhenItQuits() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let listener = Self.collect(try await Self.listen(fixture, game))
            let (_, json, _) = try await fixture.call(.post, "/v1/games/\(game)/input", #"{"text": "quit"}"#)
            #expect(json?["ended"] == true)
            let heard = try await listener.value
            #expect(heard.map(\.type) == ["ended"])
            #expect(heard.first?.json["game"]?.stringValue == game)
            // An ended game has no events to listen to.
            let (status, problem, _) = try await fixture.call(.get, "/v1/games/\(game)/events")
            #expect(status == 404)
            #expect(problem?["type"] == "urn:parley:problem:game-ended")
        }
    }

    @Test func aLastEventIDThatIsNoNumberIsRefused() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let (status, problem, _) = try await fixture.call(
                .get, "/v1/games/\(game)/events", headers: ["Last-Event-ID": "yesterday"])
            #expect(status == 400)
            let detail = problem?["detail"]?.stringValue ?? ""
            #expect(detail.contains("Last-Event-ID"), "\(detail)")
            #expect(try await fixture.call(.get, "/v1/games/none/events").status == 404)
            // Digits with a sign are no id this stream sends, though Int("+5") reads them (found by schemathesis).
            // Read raw: a stream that wrongly starts would never end.
            let socket = try RawClient(port: fixture.server.port)
            #expect(
                await socket.send(
                    "GET /v1/games/\(game)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: +5\r\n\r\n"))
            let head = await socket.read(untilText: "\r\n\r\n")
            #expect(head.hasPrefix("HTTP/1.1 400 "), "\(head)")
        }
    }

    @Test func aLastEventIDBeyondEveryIDListensFromNow() async throws {
        // docs/openapi.json allows any digits: a number too large for an Int is beyond every id, so nothing was
        // missed (it was 400, found by schemathesis).
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let huge = String(repeating: "9", count: 40)
            let socket = try RawClient(port: fixture.server.port)
            #expect(
                await socket.send(
                    "GET /v1/games/\(game)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: \(huge)\r\n\r\n"))
            let text = await socket.read(untilText: ": listening to game \(game)\n\n")
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
            // Nothing from before: the new game's introduction (event 1) is not sent again.
            #expect(!text.contains("id: 1\n"), "\(text)")
        }
    }
}
