import ChildProcess
import Foundation
import ParleyBasics
import ParleyHTTP
import ParleyJSON
import ScriptedModel
import Testing

@testable import ParleyInspector

/// The inspector's routes over HTTP, without a browser: the JSON of saves, conversations and reports, the pages'
/// escaping and headers, and the report form's refusal of requests from elsewhere.
@Suite(.timeLimit(.minutes(10))) struct InspectorRoutesTests {
    @Test func theJSONListsSavesConversationsAndReports() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.saveWithARefusedOffer()
            let (listed, saves) = try await fixture.json("/v1/saves")
            #expect(listed == 200)
            #expect(saves["saves"]?[0]?["slot"] == "refused")
            let (status, save) = try await fixture.json("/v1/saves/refused")
            #expect(status == 200)
            #expect(save["npcs"]?[0]?["id"] == "mira")
            #expect(save["npcs"]?[0]?["turns"] == 2)
            #expect(save["reports"]?[0]?["kind"] == "refusedOffer")
            let (_, conversation) = try await fixture.json("/v1/saves/refused/conversations/mira")
            let first = try #require(conversation["turns"]?[0])
            #expect(first["refusedOffer"] == true)
            #expect(first["toolCalls"]?[0]?["tool"] == "offerTrade")
            #expect(first["toolCalls"]?[0]?["output"]?["status"] == "refused")
            #expect(first["reports"]?.arrayValue?.count == 1)
            #expect(first["annotations"]?["gold"] == "14")
            #expect(conversation["turns"]?[1]?["input"]?.stringValue == InspectorFixture.scriptLine)
            let (missing, problem) = try await fixture.json("/v1/saves/refused/conversations/oona")
            #expect(missing == 404)
            #expect(problem["type"] == "urn:parley:problem:no-conversation")
            let (unknown, _) = try await fixture.json("/v1/saves/nowhere")
            #expect(unknown == 404)
        }
    }

    @Test func pagesEscapeWhatSavesHoldAndForbidOtherScripts() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.saveWithARefusedOffer()
            let response = try await fixture.client.execute(.get(fixture.url("/inspect/saves/refused/npcs/mira")))
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(response.headers["Content-Security-Policy"]?.contains("script-src 'self'") == true)
            let page = response.bodyText
            #expect(!page.contains("<script>window.parleyInjected"))
            #expect(page.contains("&lt;script&gt;window.parleyInjected = true; document.title = &#39;injected&#39;"))
            #expect(page.components(separatedBy: "<script").count == 2, "only the inspector's own script tag")
        }
    }

    func post(
        _ fixture: InspectorFixture, fields: [(String, String)], headers: HTTPHeaders = [:]
    ) async throws
        -> HTTPResponse
    {
        let body = fields.map { name, value in
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            return "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
        var all = headers
        all["Content-Type"] = "application/x-www-form-urlencoded"
        return try await fixture.client.execute(
            HTTPRequest(
                method: .post, url: fixture.url("/inspect/saves/refused/npcs/mira/feedback"), headers: all,
                body: Data(body.utf8)))
    }

    @Test func theReportFormIsRefusedWithoutItsTokenOrFromAnotherOrigin() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.saveWithARefusedOffer()
            let (_, conversation) = try await fixture.json("/v1/saves/refused/conversations/mira")
            let turn = try #require(conversation["turns"]?[1]?["promptEntry"]?.stringValue)
            let token = fixture.inspector.formToken
            let reportsBefore = try fixture.inspector.reports("refused").count

            let noToken = try await post(fixture, fields: [("turn", turn), ("category", "incorrect")])
            #expect(noToken.status == 403)
            let wrongToken = try await post(fixture, fields: [("token", "guess"), ("turn", turn)])
            #expect(wrongToken.status == 403)
            let elsewhere = try await post(
                fixture, fields: [("token", token), ("turn", turn)], headers: ["Origin": "http://evil.example"])
            #expect(elsewhere.status == 403)
            let crossSite = try await post(
                fixture, fields: [("token", token), ("turn", turn)], headers: ["Sec-Fetch-Site": "cross-site"])
            #expect(crossSite.status == 403)
            #expect(try fixture.inspector.reports("refused").count == reportsBefore)

            // From the inspector's own page (its origin, its token), a report is filed.
            let origin = fixture.server.baseURL
            let filed = try await post(
                fixture,
                fields: [
                    ("token", token), ("turn", turn), ("sentiment", "negative"), ("category", "unhelpful"),
                    ("explanation", "Says <b>Alas</b> & nothing else"),
                ],
                headers: ["Origin": origin])
            #expect(filed.status == 303)
            #expect(filed.headers["Location"]?.hasPrefix("/inspect/saves/refused/npcs/mira?filed=") == true)
            let reports = try fixture.inspector.reports("refused")
            #expect(reports.count == reportsBefore + 1)
            let report = try #require(reports.last?.attachment)
            #expect(report.issues.first?.category == .unhelpful)
            #expect(report.issues.first?.explanation?.hasPrefix("Says <b>Alas</b> & nothing else") == true)
            #expect(report.context["kind"] == "developerReport")

            let badCategory = try await post(
                fixture, fields: [("token", token), ("turn", turn), ("category", "rude")], headers: ["Origin": origin])
            #expect(badCategory.status == 400)
            #expect(badCategory.bodyText.contains("is not one of"))
        }
    }

    @Test func anAuthoredBeatIsMarkedAsAuthored() async throws {
        try await InspectorFixture.with { fixture in
            // Aurelio's first words are a beat of the shipped content (npcs/aurelio.json, "plea"), said verbatim.
            try await fixture.play(
                ["go south", "go east", "talk to aurelio", "what do you sell?"], slot: "beat",
                models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) })
            let (_, conversation) = try await fixture.json("/v1/saves/beat/conversations/aurelio")
            let turns = try #require(conversation["turns"]?.arrayValue)
            try #require(turns.count == 2, "\(turns)")
            #expect(turns[0]["beat"] == true)
            #expect(turns[0]["reply"]?.stringValue?.contains("Moonpetal Locket") == true)
            #expect(turns[1]["beat"] == false)
            let page = try await fixture.client.execute(.get(fixture.url("/inspect/saves/beat/npcs/aurelio"))).bodyText
            #expect(page.components(separatedBy: "<span class=\"badge\">authored beat</span>").count == 2)
            #expect(page.contains("<li class=\"turn beat\" id=\"turn-1\">"))
        }
    }

    @Test func aReplayShowsRecordedAndReplayedTurnsSideBySide() async throws {
        try await InspectorFixture.with { fixture in
            // Recorded with a model that offers the lantern for 1 gold; replayed with the scripted model, which does not.
            try await fixture.saveWithARefusedOffer()
            let replayed = try await fixture.client.execute(
                HTTPRequest(method: .post, url: fixture.url("/v1/saves/refused/replay")))
            #expect(replayed.status == 200)
            let replay = try JSONValue(parsing: Array(replayed.body))
            let turns = try #require(replay["turns"]?.arrayValue)
            #expect(turns.count == 2)
            #expect(turns[0]["recorded"]?["calls"]?[0]?.stringValue?.hasPrefix("offerTrade") == true, "\(turns[0])")
            #expect(turns[0]["status"] == "changed")
            #expect(replay["changed"]?.intValue == 2)
            let page = try await fixture.client.execute(
                HTTPRequest(
                    method: .post, url: fixture.url("/inspect/saves/refused/replay"),
                    headers: [
                        "Content-Type": "application/x-www-form-urlencoded", "Origin": fixture.server.baseURL,
                    ], body: Data("token=\(fixture.inspector.formToken)".utf8))
            ).bodyText
            #expect(page.components(separatedBy: "<tr class=\"status-changed\">").count == 3)
            #expect(page.contains("Replayed against scripted: 2 turns: 0 same, 2 changed, 0 failed."))
            #expect(page.contains("&lt;script&gt;window.parleyInjected"))
        }
    }

    @Test func parleyInspectServesTheInspectorOnLoopbackAndStopsOnSIGTERM() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.saveWithARefusedOffer()
            let binary = Bundle.main.bundleURL.appendingPathComponent("parley")
            let output = fixture.folder.appendingPathComponent("inspect.out")
            let errors = fixture.folder.appendingPathComponent("inspect.err")
            let process = try ChildProcess.launch(
                binary.path,
                arguments: ["inspect", "--saves", fixture.folder.path, "--port", "0", "--content", "Content"],
                directory: InspectorFixture.root.path, output: .file(output.path), error: .file(errors.path))
            defer {
                process.send(SIGKILL)
                process.waitForExit()
            }
            var url = ""
            let deadline = ContinuousClock.now + .seconds(60)
            while url.isEmpty, process.isRunning, ContinuousClock.now < deadline {
                let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                if let end = text.firstIndex(of: "\n") {
                    url = String(text[..<end])
                } else {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            try #require(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/inspect"), "printed \(url); \(log)")
            let page = try await fixture.client.execute(.get(url))
            #expect(page.status == 200)
            #expect(page.bodyText.contains("/inspect/saves/refused/npcs/mira"))
            let saves = try await fixture.client.execute(
                .get(url.replacingOccurrences(of: "/inspect", with: "/v1/saves")))
            #expect(try JSONValue(parsing: Array(saves.body))["saves"]?[0]?["slot"] == "refused")
            process.send(SIGTERM)
            let ended = await offThePool { process.waitForExit() }
            #expect(ended == .exited(0), "\(log)")
        }
    }

    @Test func aReportFiledAsJSONIsTheDocumentedFormat() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.saveWithARefusedOffer()
            let (_, conversation) = try await fixture.json("/v1/saves/refused/conversations/mira")
            let turn = try #require(conversation["turns"]?[0]?["promptEntry"]?.stringValue)
            let body: JSONValue = ["turn": .string(turn), "category": "incorrect", "desiredOutput": "No offer at all."]
            let response = try await fixture.client.execute(
                .postJSON(
                    fixture.url("/v1/saves/refused/conversations/mira/feedback"), body: Data(body.jsonString().utf8)))
            #expect(response.status == 201, "\(response.bodyText)")
            let report = try JSONValue(parsing: Array(response.body))
            #expect(report["type"] == "Parley.FeedbackAttachment")
            let id = try #require(report["id"]?.stringValue)
            let (status, stored) = try await fixture.json("/v1/saves/refused/feedback/\(id)")
            #expect(status == 200)
            #expect(stored == report)
        }
    }

    @Test func aReportAboutATurnTheConversationDoesNotHaveIs422() async throws {
        // A body of the documented shape whose turn names nothing: unprocessable, as a push naming an unknown NPC is
        // (it was 400, found by schemathesis).
        try await InspectorFixture.with { fixture in
            try await fixture.saveWithARefusedOffer()
            let (_, before) = try await fixture.json("/v1/saves/refused/feedback")
            let body: JSONValue = ["turn": "no-such-turn"]
            let response = try await fixture.client.execute(
                .postJSON(
                    fixture.url("/v1/saves/refused/conversations/mira/feedback"), body: Data(body.jsonString().utf8)))
            #expect(response.status == 422, "\(response.bodyText)")
            let problem = try JSONValue(parsing: Array(response.body))
            #expect(problem["type"] == "urn:parley:problem:unknown-turn", "\(problem)")
            let (_, after) = try await fixture.json("/v1/saves/refused/feedback")
            #expect(after == before)
        }
    }
}
