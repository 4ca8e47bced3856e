import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ParleyAPI
import ParleyEngine
import ParleyHTTP
import ParleyJSON
import ParleyServer
import Testing

/// A game with a world of its own, over HTTP: it pushes its state (`PATCH /v1/games/{id}/state`), and Parley's NPCs
/// price, offer and refuse by that state, keep it in the save, and refuse a bad push whole.
@Suite(.timeLimit(.minutes(10))) struct OwnWorldTests {
    typealias Fixture = HTTPAPITests.Fixture

    /// `PATCH /v1/games/{id}/state` with a body, and its answer.
    static func push(
        _ fixture: Fixture, _ game: String, _ body: String
    ) async throws -> (
        status: Int, json: JSONValue?, response: HTTPResponse
    ) {
        try await fixture.call(.patch, "/v1/games/\(game)/state", body)
    }

    /// The words the NPCs said in a line's events.
    static func said(_ events: [JSONValue]) -> String {
        events.filter { $0["type"] == "speech" }.compactMap { $0["text"]?.stringValue }.joined()
    }

    @Test func pricesOffersAndRefusalsFollowThePushedState() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            // The game's own world: Mira has no lanterns, the player 500 gold and bread.
            let (status, json, _) = try await Self.push(
                fixture, game,
                #"{"player": {"gold": 500, "inventory": {"bread": 5}}, "npcs": {"mira": {"inventory": {"lantern": 0}}}}"#
            )
            #expect(status == 200)
            #expect(json?["state"]?["player"]?["gold"] == 500)
            let events = json?["events"]?.arrayValue ?? []
            #expect(events.contains { $0["type"] == "stateChanged" && $0["field"] == "gold" && $0["value"] == 500 })
            #expect(
                events.contains {
                    $0["type"] == "stateChanged" && $0["npc"]?["id"] == "mira" && $0["item"]?["id"] == "lantern"
                        && $0["value"] == 0 && $0["previous"] == 1
                })
            _ = try await fixture.say(game, "talk to mira")
            let missing = try await fixture.say(game, "how much is the lantern?")
            #expect(!Self.said(missing).contains("25 gold"), "\(Self.said(missing))")
            let stock = try #require(missing.first { $0["type"] == "toolCall" })
            #expect(
                (stock["output"]?["items"]?.arrayValue ?? []).allSatisfy { $0["item"] != "lantern" },
                "\(stock)")

            // Three lanterns in stock, and the player down to 10 gold: priced, but no offer.
            _ = try await Self.push(
                fixture, game, #"{"player": {"gold": 10}, "npcs": {"mira": {"inventory": {"lantern": 3}}}}"#)
            let priced = try await fixture.say(game, "I'll take the lantern")
            #expect(Self.said(priced).contains("25"), "\(Self.said(priced))")
            #expect(!priced.contains { $0["type"] == "offer" })
            // With gold again, the offer comes.
            _ = try await Self.push(fixture, game, #"{"player": {"gold": 30}}"#)
            let offered = try await fixture.say(game, "I'll take the lantern")
            #expect(offered.contains { $0["type"] == "offer" }, "\(offered)")
            let accepted = try await fixture.say(game, "accept")
            #expect(accepted.contains { $0["type"] == "trade" })
            let (_, state, _) = try await fixture.call(.get, "/v1/games/\(game)")
            #expect(state?["player"]?["gold"] == 5)
        }
    }

    @Test func anOfferTheRulesRefuseUnderThePushedStockIsRefusedAndReported() async throws {
        // A model that offers the rope at its price each turn, which Mira's rules allow only while she has one.
        let model = MockLanguageModel { request in
            let turn = request.transcript.reversed().prefix { if case .prompt = $0 { false } else { true } }
            let offered = turn.contains { if case .toolOutput = $0 { true } else { false } }
            return offered
                ? .text("There.")
                : .toolCall("offerTrade", arguments: #"{"action":"sell","item":"rope","quantity":1,"price":8}"#)
        }
        try await HTTPAPITests.withFixture(models: { _, _ in model }) { fixture in
            let game = try await fixture.newGame()
            _ = try await Self.push(fixture, game, #"{"npcs": {"mira": {"inventory": {"rope": 0}}}}"#)
            let events = try await fixture.say(game, "talk to mira")
            let refused = try #require(events.first { $0["type"] == "offerRefused" }, "\(events)")
            #expect(refused["reasons"]?.arrayValue?.isEmpty == false)
            _ = try await fixture.say(game, "bye")
            _ = try await Self.push(fixture, game, #"{"npcs": {"mira": {"inventory": {"rope": 1}}}}"#)
            let again = try await fixture.say(game, "talk to mira")
            #expect(again.contains { $0["type"] == "offer" }, "\(again)")
            #expect(!again.contains { $0["type"] == "offerRefused" })
        }
    }

    @Test func aBadPushIs422WithEveryProblemAndChangesNothing() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let (_, before, _) = try await fixture.call(.get, "/v1/games/\(game)")
            let (status, problem, response) = try await Self.push(
                fixture, game,
                #"{"player": {"gold": 77, "inventory": {"bread": 10001}}, "npcs": {"mria": {"gold": 3}}}"#)
            #expect(status == 422)
            #expect(response.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
            #expect(problem?["type"] == "urn:parley:problem:invalid-state")
            let errors = problem?["errors"]?.arrayValue ?? []
            #expect(errors.count == 2, "\(errors)")
            #expect(
                errors.contains { $0["path"] == "$.npcs.mria" && ($0["detail"]?.stringValue ?? "").contains("mira") })
            #expect(errors.contains { $0["path"] == "$.player.inventory.bread" })
            let (_, after, _) = try await fixture.call(.get, "/v1/games/\(game)")
            #expect(after?["player"] == before?["player"])
            // Not an object, or not JSON at all: 400.
            #expect(try await Self.push(fixture, game, "[]").status == 400)
            #expect(try await Self.push(fixture, game, "{nope").status == 400)
        }
    }

    @Test func aPushedStateIsInTheSaveAndInTheGameLoadedFromIt() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let (status, _, _) = try await Self.push(
                fixture, game,
                #"{"player": {"name": "Wren", "gold": 123, "inventory": {"bread": 7}, "location": "smithy"}, "flags": {"set": ["gate_open"]}, "quests": {"locket": "asked"}}"#
            )
            #expect(status == 200)
            let (deleted, _, _) = try await fixture.call(.delete, "/v1/games/\(game)")
            #expect(deleted == 204)
            let (loaded, json, _) = try await fixture.call(.post, "/v1/games", #"{"load": "autosave"}"#)
            #expect(loaded == 201)
            let state = json?["state"]
            #expect(state?["player"]?["name"] == "Wren")
            #expect(state?["player"]?["gold"] == 123)
            #expect(state?["location"]?["id"] == "smithy")
            #expect(
                (state?["player"]?["inventory"]?.arrayValue ?? []).contains {
                    $0["id"] == "bread" && $0["quantity"] == 7
                })
            #expect(
                (state?["quests"]?.arrayValue ?? []).contains { $0["id"] == "locket" && $0["stage"] == "asked" })
        }
    }

    @Test func aNewGameCanStartInTheGamesOwnState() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let (status, json, _) = try await fixture.call(
                .post, "/v1/games", #"{"state": {"player": {"gold": 99, "location": "north_gate"}}}"#)
            #expect(status == 201)
            #expect(json?["state"]?["player"]?["gold"] == 99)
            #expect(json?["state"]?["location"]?["id"] == "north_gate")
            // It looked around where the game put it.
            let narration = (json?["events"]?.arrayValue ?? []).filter { $0["type"] == "narration" }
            #expect(narration.contains { ($0["text"]?.stringValue ?? "").hasPrefix("North Gate") }, "\(narration)")
            // A bad state starts nothing.
            let (bad, problem, _) = try await fixture.call(.post, "/v1/games", #"{"state": {"player": {"gold": -3}}}"#)
            #expect(bad == 422)
            #expect(problem?["errors"]?[0]?["path"] == "$.state.player.gold")
            let (_, health, _) = try await fixture.call(.get, "/v1/health")
            #expect(health?["games"] == 1)
        }
    }
}

/// Checks real answers of the own-world endpoints against docs/openapi.json's schemas, as `OpenAPITests` checks the
/// others.
struct DocumentedAnswers {
    let document: JSONValue
    let fixture: HTTPAPITests.Fixture
    private(set) var checked = 0

    init(_ fixture: HTTPAPITests.Fixture) throws {
        document = try OpenAPITests.document()
        self.fixture = fixture
    }

    /// Calls the server and checks the answer against the schema documented for its path, method and status.
    @discardableResult
    mutating func check(
        _ method: HTTPMethod, _ url: String, _ documented: String, body: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (status: Int, json: JSONValue?) {
        let (status, json, response) = try await fixture.call(method, url, body)
        let operation = try #require(
            document["paths"]?[documented]?[method.rawValue.lowercased()], "\(method) \(documented)",
            sourceLocation: sourceLocation)
        let answer = try #require(
            operation["responses"]?["\(status)"], "\(method) \(documented) \(status) is not documented",
            sourceLocation: sourceLocation)
        if let content = answer["content"]?.objectValue,
            let media = content["application/json"] ?? content["application/problem+json"],
            let schemaJSON = media["schema"]
        {
            let schema = try OpenAPITests.schema(schemaJSON, in: document)
            let violations = schema.validate(try GeneratedContent(json: response.bodyText))
            #expect(violations.isEmpty, "\(method) \(url) \(status): \(violations)", sourceLocation: sourceLocation)
        }
        checked += 1
        return (status, json)
    }
}

extension OwnWorldTests {
    @Test func realAnswersFollowTheDocumentedSchemas() async throws {
        try await HTTPAPITests.withFixture { fixture in
            var answers = try DocumentedAnswers(fixture)
            let (_, created) = try await answers.check(
                .post, "/v1/games", "/v1/games", body: #"{"state": {"npcs": {"mira": {"gold": 10}}}}"#)
            let id = try #require(created?["id"]?.stringValue)
            try await answers.check(
                .patch, "/v1/games/\(id)/state", "/v1/games/{id}/state",
                body: #"""
                    {"player": {"name": "Wren", "gold": 3, "inventory": {"bread": 0, "rope": 2}, "location": "smithy"},
                     "npcs": {"mira": {"attitude": 5, "location": "smithy"}}, "flags": {"set": ["a"]},
                     "counters": {"c": 2}, "quests": {"locket": "returned"}}
                    """#)
            try await answers.check(
                .patch, "/v1/games/\(id)/state", "/v1/games/{id}/state", body: #"{"player": {"gold": -1}}"#)
            try await answers.check(.patch, "/v1/games/\(id)/state", "/v1/games/{id}/state", body: "[]")
            try await answers.check(.patch, "/v1/games/none/state", "/v1/games/{id}/state", body: "{}")
            try await answers.check(.post, "/v1/games", "/v1/games", body: #"{"state": {"quests": {"x": "y"}}}"#)
            try await answers.check(.get, "/v1/games/\(id)/npcs", "/v1/games/{id}/npcs")
            try await answers.check(.get, "/v1/games/none/npcs", "/v1/games/{id}/npcs")
            for (npc, line) in [("oona", "hello"), ("mira", "how much is the rope?"), ("mira", "I'll take it")] {
                try await answers.check(
                    .post, "/v1/games/\(id)/npcs/\(npc)/say", "/v1/games/{id}/npcs/{npc}/say",
                    body: (["text": .string(line)] as JSONValue).jsonString())
            }
            try await answers.check(
                .post, "/v1/games/\(id)/npcs/mria/say", "/v1/games/{id}/npcs/{npc}/say", body: #"{"text": "hi"}"#)
            try await answers.check(
                .post, "/v1/games/\(id)/npcs/mira/say", "/v1/games/{id}/npcs/{npc}/say", body: #"{"txt": "hi"}"#)
            for body in [
                #"{"text": "The player draws a sword.", "kind": "weaponDrawn", "witnesses": ["oona"], "react": true}"#,
                #"{"text": "Rain.", "witnesses": "here"}"#, #"{"text": "x", "witnesses": ["nobody"]}"#, "[]",
            ] {
                try await answers.check(.post, "/v1/games/\(id)/events", "/v1/games/{id}/events", body: body)
            }
            try await answers.check(.post, "/v1/games/none/events", "/v1/games/{id}/events", body: #"{"text": "x"}"#)
            #expect(answers.checked == 18)
        }
    }
}

// MARK: - Talking to an NPC directly

extension OwnWorldTests {
    @Test func anNPCElsewhereAnswersALineSaidToItDirectly() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            // The player is in the market square; Oona stands at the North Gate.
            let (status, json, _) = try await fixture.call(
                .post, "/v1/games/\(game)/npcs/oona/say", #"{"text": "hello there"}"#)
            #expect(status == 200)
            let events = json?["events"]?.arrayValue ?? []
            #expect(events.contains { $0["type"] == "speechBegan" && $0["npc"]?["id"] == "oona" }, "\(events)")
            #expect(!Self.said(events).isEmpty)
            #expect(json?["ended"] == false)
            let (_, state, _) = try await fixture.call(.get, "/v1/games/\(game)")
            #expect(state?["talkingTo"]?["id"] == "oona")
            #expect(state?["location"]?["id"] == "market_square")
            // Her conversation is the game's, and saved with it.
            let (transcript, _, _) = try await fixture.call(.get, "/v1/games/\(game)/transcript/oona")
            #expect(transcript == 200)
            let (_, save, _) = try await fixture.call(.get, "/v1/saves/autosave")
            #expect((save?["npcs"]?.arrayValue ?? []).contains { $0["id"] == "oona" }, "\(String(describing: save))")
        }
    }

    @Test func aLineSaidDirectlyStreamsAsServerSentEvents() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let request = HTTPRequest.postJSON(
                fixture.url("/v1/games/\(game)/npcs/mira/say"),
                body: Data(#"{"text": "how much is the lantern?"}"#.utf8),
                accept: "text/event-stream")
            let response = try await fixture.client.stream(request)
            #expect(response.status == 200)
            var names: [String] = []
            var speech = ""
            for try await event in response.serverSentEvents {
                names.append(event.event ?? "")
                if event.event == "speech" { speech += try JSONValue(parsing: event.data)["text"]?.stringValue ?? "" }
            }
            #expect(names.last == "done")
            #expect(names.contains("toolCall"))
            #expect(speech.contains("25 gold"), "\(speech)")
        }
    }

    @Test func everyNPCIsListedWhereverItIs() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.call(.post, "/v1/games/\(game)/npcs/pip/say", #"{"text": "hi"}"#)
            let (status, json, _) = try await fixture.call(.get, "/v1/games/\(game)/npcs")
            #expect(status == 200)
            let npcs = json?["npcs"]?.arrayValue ?? []
            #expect(
                npcs.compactMap { $0["id"]?.stringValue } == ["aurelio", "brannoc", "hesper", "mira", "oona", "pip"])
            let mira = try #require(npcs.first { $0["id"] == "mira" })
            #expect(mira["name"] == "Mira Quickcoin")
            #expect(mira["location"]?["id"] == "market_square" && mira["here"] == true)
            #expect(mira["talkedTo"] == false)
            #expect(mira["gold"] == 60)
            let oona = try #require(npcs.first { $0["id"] == "oona" })
            #expect(oona["location"]?["name"] == "North Gate" && oona["here"] == false)
            #expect(npcs.first { $0["id"] == "pip" }?["talkedTo"] == true)
        }
    }

    @Test func aLineToAnUnknownNPCOrWithoutTextIsRefused() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let (unknown, problem, _) = try await fixture.call(
                .post, "/v1/games/\(game)/npcs/mria/say", #"{"text": "hi"}"#)
            #expect(unknown == 404)
            #expect(problem?["type"] == "urn:parley:problem:unknown-npc")
            let detail = problem?["detail"]?.stringValue ?? ""
            #expect(detail.contains("did you mean \"mira\""), "\(detail)")
            #expect(try await fixture.call(.post, "/v1/games/\(game)/npcs/mira/say", #"{"line": "hi"}"#).status == 400)
            #expect(try await fixture.call(.post, "/v1/games/none/npcs/mira/say", #"{"text": "hi"}"#).status == 404)
            let long = (["text": .string(String(repeating: "a", count: 2_001))] as JSONValue).jsonString()
            #expect(try await fixture.call(.post, "/v1/games/\(game)/npcs/mira/say", long).status == 413)
        }
    }
}

// MARK: - Telling NPCs what happened

extension OwnWorldTests {
    @Test func anInjectedEventWithReactMakesAnNPCSpeakAndListenersHearIt() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let listener = GameEventsTests.collect(try await GameEventsTests.listen(fixture, game))
            let (status, json, _) = try await fixture.call(
                .post, "/v1/games/\(game)/events",
                #"{"text": "The player draws a sword.", "kind": "weaponDrawn", "witnesses": ["oona"], "react": true}"#)
            #expect(status == 200)
            let events = json?["events"]?.arrayValue ?? []
            let told = try #require(events.first)
            #expect(told["type"] == "worldEvent")
            #expect(told["text"] == "The player draws a sword." && told["kind"] == "weaponDrawn")
            #expect(told["witnesses"]?[0]?["id"] == "oona" && told["react"] == true)
            #expect(Self.said(events).contains("Rule 3"), "\(Self.said(events))")
            #expect(json?["ended"] == false)
            // Without react: in her conversation, and nobody speaks.
            let (_, quiet, _) = try await fixture.call(
                .post, "/v1/games/\(game)/events", #"{"text": "A crow lands on the gate.", "witnesses": ["oona"]}"#)
            #expect((quiet?["events"]?.arrayValue ?? []).map { $0["type"] } == ["worldEvent"])
            let (_, transcript, _) = try await fixture.call(.get, "/v1/games/\(game)/transcript/oona")
            let text = transcript?.jsonString() ?? ""
            #expect(text.contains("A crow lands on the gate."))
            _ = try await fixture.call(.delete, "/v1/games/\(game)")
            let heard = try await listener.value
            #expect(heard.filter { $0.type == "worldEvent" }.count == 2)
            #expect(heard.contains { $0.type == "speechEnded" && $0.json["npc"]?["id"] == "oona" })
        }
    }

    @Test func anInjectedEventStreamsTheReactions() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let request = HTTPRequest.postJSON(
                fixture.url("/v1/games/\(game)/events"),
                body: Data(#"{"text": "Smoke rises over the rooftops.", "witnesses": "here", "react": true}"#.utf8),
                accept: "text/event-stream")
            let response = try await fixture.client.stream(request)
            var names: [String] = []
            for try await event in response.serverSentEvents { names.append(event.event ?? "") }
            #expect(names.first == "worldEvent")
            #expect(names.contains("speechEnded"))
            #expect(names.last == "done")
        }
    }

    @Test func aBadEventIs422AndTellsNobody() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let (status, problem, _) = try await fixture.call(
                .post, "/v1/games/\(game)/events", #"{"text": "", "witnesses": ["ona"], "react": true}"#)
            #expect(status == 422)
            #expect(problem?["type"] == "urn:parley:problem:invalid-event")
            let paths = (problem?["errors"]?.arrayValue ?? []).compactMap { $0["path"]?.stringValue }
            #expect(paths == ["$.text", "$.witnesses[0]"])
            let (_, npcs, _) = try await fixture.call(.get, "/v1/games/\(game)/npcs")
            #expect((npcs?["npcs"]?.arrayValue ?? []).allSatisfy { $0["talkedTo"] == false })
            #expect(try await fixture.call(.post, "/v1/games/\(game)/events", "[1]").status == 400)
        }
    }
}
