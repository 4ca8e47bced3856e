import Foundation
import ParleyHTTP
import Testing

/// `parley serve`'s options for games beside one another, end to end: `--cors-origin ORIGIN` (pages from the origins
/// given may call the API from a browser, pages from any other may not, and no origin may without the option) and
/// `--idle-timeout SECONDS`.
@Suite(.timeLimit(.minutes(10))) struct ServeOptionTests {
    static func preflight(_ server: ServedParley, origin: String) async throws -> HTTPResponse {
        try await HTTPClient().execute(
            HTTPRequest(
                method: .options, url: server.baseURL + "/v1/games",
                headers: [
                    "Origin": origin, "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "content-type",
                ]))
    }

    @Test func onlyTheOriginsGivenMayCallTheAPIFromABrowser() async throws {
        let folder = try OptionValueTests.Folder()
        try await ServedParley.with(
            saves: folder.url.appendingPathComponent("Saves"), token: nil,
            arguments: ["--cors-origin", "http://localhost:8000", "--cors-origin", "https://game.example"]
        ) { server in
            for origin in ["http://localhost:8000", "https://game.example"] {
                let allowed = try await Self.preflight(server, origin: origin)
                #expect(allowed.status == 204, "\(server.errorOutput)")
                #expect(allowed.headers["Access-Control-Allow-Origin"] == origin)
                #expect(allowed.headers["Access-Control-Allow-Methods"]?.contains("POST") == true)
            }
            let refused = try await Self.preflight(server, origin: "http://localhost:9000")
            #expect(refused.status == 403)
            #expect(refused.headers["Access-Control-Allow-Origin"] == nil)
            let health = try await HTTPClient().execute(
                .get(server.baseURL + "/v1/health", headers: ["Origin": "https://game.example"]))
            #expect(health.headers["Access-Control-Allow-Origin"] == "https://game.example")
        }
    }

    @Test func withoutTheOptionNoOriginMay() async throws {
        let folder = try OptionValueTests.Folder()
        try await ServedParley.with(saves: folder.url.appendingPathComponent("Saves"), token: nil) { server in
            let refused = try await Self.preflight(server, origin: "http://localhost:8000")
            #expect(refused.status == 403)
        }
    }

    @Test func anOriginThatIsNotOneIsAUsageError() async throws {
        let run = try await runParley(["serve", "--cors-origin", "localhost:8000", "--port", "0"], input: "")
        #expect(run.status == 64, "\(run.out) \(run.err)")
        #expect(run.err.contains("--cors-origin localhost:8000 is not an origin"), "\(run.err)")
    }

    @Test(arguments: ["0", "soon", "-5"])
    func anIdleTimeoutThatIsNoPositiveWholeNumberIsAUsageError(value: String) async throws {
        let run = try await runParley(["serve", "--idle-timeout", value, "--port", "0"], input: "")
        #expect(run.status == 64, "\(run.out) \(run.err)")
        #expect(run.err.contains("--idle-timeout"), "\(run.err)")
    }

    @Test func aServerWithAnIdleTimeoutServesAndStops() async throws {
        let folder = try OptionValueTests.Folder()
        try await ServedParley.with(
            saves: folder.url.appendingPathComponent("Saves"), token: nil, arguments: ["--idle-timeout", "3600"]
        ) { server in
            let (status, health) = try await server.get("/v1/health")
            #expect(status == 200 && health["status"] == "ok")
            #expect(await server.stop() == .exited(0))
        }
    }
}
