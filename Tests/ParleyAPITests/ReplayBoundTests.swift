import Foundation
import ParleyHTTP
import ParleyJSON
import Testing

/// A replay runs the model again for every recorded turn (minutes of CPU for a long save, or a paid API's bill): it is
/// bounded in time (`parley serve --replay-timeout`), and past its bound it answers with what it replayed so far and
/// says it stopped early. A bound of zero replays nothing, without any clock to wait for.
@Suite(.timeLimit(.minutes(10))) struct ReplayBoundTests {
    static func savedConversation(_ fixture: HTTPAPITests.Fixture) async throws {
        let game = try await fixture.newGame()
        _ = try await fixture.say(game, "talk to mira")
        _ = try await fixture.say(game, "how much is the lantern?")
        let (status, _, _) = try await fixture.call(.post, "/v1/games/\(game)/save", #"{"slot": "kept"}"#)
        #expect(status == 200)
    }

    @Test func aReplayPastItsBoundAnswersWithWhatItReplayed() async throws {
        try await HTTPAPITests.withFixture(configure: { $0.replayTimeLimit = .zero }) { fixture in
            try await Self.savedConversation(fixture)
            let (status, report, response) = try await fixture.call(.post, "/v1/saves/kept/replay")
            #expect(status == 200, "\(response.bodyText)")
            #expect(report?["stoppedEarly"] == .bool(true), "\(response.bodyText)")
            #expect(report?["turns"] == .array([]))
            let notReplayed = report?["notReplayed"]?.intValue ?? 0
            #expect(notReplayed >= 2, "\(response.bodyText)")
            #expect(report?["summary"]?.stringValue?.contains("stopped at the time limit") == true)

            // The inspector's form says so too.
            let page = try await fixture.client.execute(.get(fixture.url("/inspect/saves/kept"))).bodyText
            let token = try #require(
                page.firstMatch(of: #/name="token" value="([0-9a-f]+)"/#).map { String($0.output.1) }, "\(page)")
            let replayed = try await fixture.client.execute(
                HTTPRequest(
                    method: .post, url: fixture.url("/inspect/saves/kept/replay"),
                    headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("token=\(token)".utf8)))
            #expect(replayed.status == 200)
            #expect(replayed.bodyText.contains("stopped at its time limit"), "\(replayed.bodyText.prefix(2000))")
            #expect(replayed.bodyText.contains("--replay-timeout"))
        }
    }

    @Test func aReplayWithinItsBoundReplaysEveryTurn() async throws {
        try await HTTPAPITests.withFixture { fixture in
            try await Self.savedConversation(fixture)
            let (status, report, response) = try await fixture.call(.post, "/v1/saves/kept/replay")
            #expect(status == 200, "\(response.bodyText)")
            #expect(report?["stoppedEarly"] == .bool(false))
            #expect(report?["notReplayed"]?.intValue == 0)
            #expect((report?["turns"]?.arrayValue?.count ?? 0) >= 2, "\(response.bodyText)")
        }
    }
}
