import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleyJSON
import Testing

/// What a web page of another site can do to a `parley serve` on the player's machine: nothing that changes anything.
/// A browser sends a `text/plain` or form `POST` to any address without asking first (it only keeps the page from
/// reading the answer), and says where it came from (`Origin`, `Sec-Fetch-Site`): such requests are refused with
/// `403` on every endpoint that changes something, a body that is not `application/json` is refused with `415`, and a
/// replay, which runs the model again for every turn, is a `POST` too. Programs that are not browsers (curl, a game
/// engine) send neither field and are not affected; pages from an origin the server allows (`--cors-origin`) still
/// play.
@Suite(.timeLimit(.minutes(10))) struct CrossSiteTests {
    typealias Fixture = HTTPAPITests.Fixture

    /// A request with exactly these header fields.
    static func send(
        _ fixture: Fixture, _ method: HTTPMethod, _ path: String, body: String?, headers: HTTPHeaders
    ) async throws -> HTTPResponse {
        try await fixture.client.execute(
            HTTPRequest(method: method, url: fixture.url(path), headers: headers, body: body.map { Data($0.utf8) }))
    }

    /// The save files in the folder.
    static func files(_ fixture: Fixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)) ?? []).filter {
            $0.hasSuffix(".parley")
        }
    }

    /// What a page of another site sends: `Origin`, and in a newer browser `Sec-Fetch-Site`.
    static let fromAnotherSite: [HTTPHeaders] = [
        ["Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"],
        ["Origin": "http://evil.example"],
        ["Origin": "null"],
        ["Origin": "http://localhost:3000", "Sec-Fetch-Site": "same-site"],
        ["Sec-Fetch-Site": "cross-site"],
    ]

    @Test func aPageOfAnotherSiteCannotStartGames() async throws {
        try await HTTPAPITests.withFixture { fixture in
            for site in Self.fromAnotherSite {
                for contentType in ["text/plain", "application/x-www-form-urlencoded", "application/json"] {
                    var headers = site
                    headers["Content-Type"] = contentType
                    let response = try await Self.send(fixture, .post, "/v1/games", body: "{}", headers: headers)
                    #expect(response.status == 403, "\(site) \(contentType): \(response.bodyText)")
                    #expect(response.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
                    let problem = try? JSONValue(parsing: Array(response.body))
                    #expect(problem?["type"] == "urn:parley:problem:cross-site-request", "\(response.bodyText)")
                }
                // No body at all is no way around it.
                let empty = try await Self.send(fixture, .post, "/v1/games", body: nil, headers: site)
                #expect(empty.status == 403, "\(site)")
            }
            let (_, listed, _) = try await fixture.call(.get, "/v1/games")
            #expect(listed?["games"] == .array([]))
            #expect(Self.files(fixture).isEmpty, "\(Self.files(fixture))")
        }
    }

    @Test func aBodyThatIsNotJSONIsRefusedWith415() async throws {
        try await HTTPAPITests.withFixture { fixture in
            for contentType in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                let response = try await Self.send(
                    fixture, .post, "/v1/games", body: "{}", headers: ["Content-Type": contentType])
                #expect(response.status == 415, "\(contentType): \(response.bodyText)")
                let problem = try? JSONValue(parsing: Array(response.body))
                #expect(problem?["type"] == "urn:parley:problem:unsupported-media-type", "\(response.bodyText)")
                let detail = problem?["detail"]?.stringValue ?? ""
                #expect(detail.contains("application/json"), "\(detail)")
            }
            let untyped = try await Self.send(fixture, .post, "/v1/games", body: "{}", headers: [:])
            #expect(untyped.status == 415, "\(untyped.bodyText)")
            #expect(Self.files(fixture).isEmpty)
            // JSON with parameters is JSON; and a POST with no body at all, where none is needed, starts a game.
            let typed = try await Self.send(
                fixture, .post, "/v1/games", body: "{}", headers: ["Content-Type": "Application/JSON; charset=utf-8"])
            #expect(typed.status == 201, "\(typed.bodyText)")
            let bare = try await Self.send(fixture, .post, "/v1/games", body: nil, headers: [:])
            #expect(bare.status == 201, "\(bare.bodyText)")
            let game = try #require((try? JSONValue(parsing: Array(bare.body)))?["id"]?.stringValue)
            let line = try await Self.send(
                fixture, .post, "/v1/games/\(game)/input", body: #"{"text": "take apple"}"#,
                headers: ["Content-Type": "text/plain"])
            #expect(line.status == 415)
            let (_, state, _) = try await fixture.call(.get, "/v1/games/\(game)")
            #expect(!(state?["player"]?["inventory"]?.arrayValue ?? []).contains { $0["id"] == "apple" })
        }
    }

    @Test func everyEndpointThatChangesSomethingRefusesAnotherSite() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            _ = try await fixture.say(game, "how much is the lantern?")
            let (_, saved, _) = try await fixture.call(.post, "/v1/games/\(game)/save", #"{"slot": "kept"}"#)
            #expect(saved?["slot"] == "kept")
            let (_, conversation, _) = try await fixture.call(.get, "/v1/saves/kept/conversations/mira")
            let turn = conversation?["turns"]?[0]?["promptEntry"]?.stringValue ?? "turn"
            let (_, before, _) = try await fixture.call(.get, "/v1/games/\(game)")
            let (_, reportsBefore, _) = try await fixture.call(.get, "/v1/saves/kept/feedback")
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            let requests: [(HTTPMethod, String, String?)] = [
                (.post, "/v1/games/\(game)/input", #"{"text": "take apple"}"#),
                (.post, "/v1/games/\(game)/save", #"{"slot": "elsewhere"}"#),
                (.patch, "/v1/games/\(game)/state", #"{"player": {"gold": 999}}"#),
                (.post, "/v1/games/\(game)/events", #"{"text": "A bell rings.", "witnesses": "here"}"#),
                (.post, "/v1/games/\(game)/npcs/mira/say", #"{"text": "hello"}"#),
                (.post, "/v1/games/\(game)/actions/0123456789abcdef", #"{"output": 1}"#),
                (.post, "/v1/saves/kept/conversations/mira/feedback", #"{"turn": "\#(turn)"}"#),
                (.post, "/v1/saves/kept/replay", nil),
                (.delete, "/v1/games/\(game)", nil),
            ]
            for (method, path, body) in requests {
                for site in Self.fromAnotherSite {
                    var headers = site
                    if body != nil { headers["Content-Type"] = "application/json" }
                    let response = try await Self.send(fixture, method, path, body: body, headers: headers)
                    #expect(response.status == 403, "\(method) \(path) \(site): \(response.status)")
                }
            }
            let (status, after, _) = try await fixture.call(.get, "/v1/games/\(game)")
            #expect(status == 200)
            #expect(after == before)
            #expect(!Self.files(fixture).contains("elsewhere.parley"))
            let (_, reports, _) = try await fixture.call(.get, "/v1/saves/kept/feedback")
            #expect(reports == reportsBefore)
            // Reading stays open to any page (it cannot read the answer without CORS), and the server's own pages
            // and programs that are not browsers still change things.
            let read = try await Self.send(
                fixture, .get, "/v1/games/\(game)", body: nil, headers: ["Origin": "http://evil.example"])
            #expect(read.status == 200)
            var own = json
            own["Origin"] = fixture.server.baseURL
            own["Sec-Fetch-Site"] = "same-origin"
            let line = try await Self.send(
                fixture, .post, "/v1/games/\(game)/input", body: #"{"text": "look"}"#, headers: own)
            #expect(line.status == 200, "\(line.bodyText)")
        }
    }

    @Test func anAllowedOriginPlaysThoughItIsAnotherSite() async throws {
        let page = "http://localhost:8000"
        try await HTTPAPITests.withFixture(allowedOrigins: [page]) { fixture in
            let headers: HTTPHeaders = [
                "Origin": page, "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json",
            ]
            let started = try await Self.send(fixture, .post, "/v1/games", body: "{}", headers: headers)
            #expect(started.status == 201, "\(started.bodyText)")
            #expect(started.headers["Access-Control-Allow-Origin"] == page)
            let game = try #require((try? JSONValue(parsing: Array(started.body)))?["id"]?.stringValue)
            let line = try await Self.send(
                fixture, .post, "/v1/games/\(game)/input", body: #"{"text": "look"}"#, headers: headers)
            #expect(line.status == 200)
            // Another origin is still refused.
            var other = headers
            other["Origin"] = "http://localhost:8001"
            let refused = try await Self.send(fixture, .post, "/v1/games", body: "{}", headers: other)
            #expect(refused.status == 403)
        }
    }

    @Test func aReplayIsAPostAndNoLinkCanStartIt() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            _ = try await fixture.say(game, "how much is the lantern?")
            _ = try await fixture.call(.post, "/v1/games/\(game)/save", #"{"slot": "kept"}"#)
            // What an <img> or a link would do.
            for path in ["/v1/saves/kept/replay", "/inspect/saves/kept/replay"] {
                let loaded = try await Self.send(
                    fixture, .get, path, body: nil, headers: ["Sec-Fetch-Site": "cross-site"])
                #expect(loaded.status == 405, "\(path): \(loaded.status)")
            }
            let replayed = try await Self.send(fixture, .post, "/v1/saves/kept/replay", body: nil, headers: [:])
            #expect(replayed.status == 200, "\(replayed.bodyText)")
            #expect((try? JSONValue(parsing: Array(replayed.body)))?["same"] != nil)

            // The inspector's page has a form with its token; without the token, or from elsewhere, it is refused.
            let page = try await Self.send(fixture, .get, "/inspect/saves/kept", body: nil, headers: [:]).bodyText
            let token = try #require(
                page.firstMatch(of: #/name="token" value="([0-9a-f]+)"/#).map { String($0.output.1) }, "\(page)")
            #expect(page.contains(#"<form method="post" action="/inspect/saves/kept/replay">"#))
            let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
            var own = form
            own["Origin"] = fixture.server.baseURL
            var elsewhere = form
            elsewhere["Origin"] = "http://evil.example"
            for (headers, body, expected) in [
                (own, "token=guess", 403), (own, "", 403), (elsewhere, "token=\(token)", 403),
                (own, "token=\(token)", 200),
            ] {
                let response = try await Self.send(
                    fixture, .post, "/inspect/saves/kept/replay", body: body, headers: headers)
                #expect(response.status == expected, "\(headers) \(body): \(response.bodyText.prefix(300))")
            }
        }
    }
    /// DNS rebinding: a page of another site whose name now resolves to 127.0.0.1 sends its requests here with its
    /// own name in `Host` and its own origin in `Origin`, which match. The server answers `421` to all of them, creates
    /// nothing and replays nothing.
    @Test func aRebindingPageGetsNothing() async throws {
        try await HTTPAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            _ = try await fixture.call(.post, "/v1/games/\(game)/save", #"{"slot": "kept"}"#)
            let page = try await Self.send(fixture, .get, "/inspect/saves/kept", body: nil, headers: [:]).bodyText
            let token = try #require(
                page.firstMatch(of: #/name="token" value="([0-9a-f]+)"/#).map { String($0.output.1) }, "\(page)")
            let filesBefore = Self.files(fixture)
            let host = "rebound.example:\(fixture.server.port)"
            let requests: [(String, String, String)] = [
                ("GET", "/v1/games/\(game)", ""),
                ("GET", "/inspect/saves/kept", ""),
                ("POST", "/v1/games", "{}"),
                ("POST", "/v1/games/\(game)/input", #"{"text": "take apple"}"#),
                ("POST", "/v1/saves/kept/replay", ""),
            ]
            for (method, path, body) in requests {
                let socket = try RawClient(port: fixture.server.port)
                let sent = await socket.send(
                    "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://\(host)\r\n"
                        + "Sec-Fetch-Site: same-origin\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
                #expect(sent)
                let answer = await socket.read(untilText: "\r\n\r\n{")
                #expect(answer.hasPrefix("HTTP/1.1 421 "), "\(method) \(path): \(answer.prefix(300))")
                #expect(answer.contains("urn:parley:problem:misdirected-request"), "\(answer.prefix(600))")
            }
            let form = "token=\(token)"
            let socket = try RawClient(port: fixture.server.port)
            _ = await socket.send(
                "POST /inspect/saves/kept/replay HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://\(host)\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n"
                    + "Connection: close\r\n\r\n\(form)")
            let replayed = await socket.read(untilText: "\r\n\r\n{")
            #expect(replayed.hasPrefix("HTTP/1.1 421 "), "\(replayed.prefix(300))")
            let (_, listed, _) = try await fixture.call(.get, "/v1/games")
            #expect(listed?["games"]?.arrayValue?.count == 1)
            #expect(Self.files(fixture) == filesBefore)
        }
    }
}
