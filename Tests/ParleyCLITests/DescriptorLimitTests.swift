import Foundation
import ParleyHTTP
import ParleyJSON
import Testing

/// A server short of file descriptors: every game it makes has an id of its own (never Foundation's zeros, which
/// made each new game replace the last), and once the descriptors it has leave no room for another game's save, a
/// new game is a clear `503` that creates nothing, while the server goes on answering and its games go on playing.
@Suite(.timeLimit(.minutes(10))) struct DescriptorLimitTests {
    @Test func aServerShortOfDescriptorsRefusesNewGamesWith503AndGivesEachGameItsOwnID() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-fd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let saves = root.appendingPathComponent("saves")
        let client = try HTTPClient()
        try await ServedParley.with(saves: saves, token: nil, descriptorLimit: 64) { server in
            func post(_ path: String, _ body: String) async throws -> HTTPResponse {
                try await client.execute(
                    HTTPRequest(
                        method: .post, url: server.baseURL + path, headers: ["Content-Type": "application/json"],
                        body: Data(body.utf8)))
            }
            var ids: [String] = []
            var refusal: HTTPResponse?
            // The server's own limit is 64 games: a refusal must come from its descriptors, long before.
            for _ in 0..<64 {
                let response = try await post("/v1/games", "{}")
                guard response.status == 201 else {
                    refusal = response
                    break
                }
                let id = try #require((try? JSONValue(parsing: Array(response.body)))?["id"]?.stringValue)
                ids.append(id)
            }
            #expect(!ids.isEmpty, "no game was made: \(server.errorOutput)")
            #expect(Set(ids).count == ids.count, "ids repeat: \(ids)")
            let refused = try #require(refusal, "64 games were made with 64 descriptors")
            #expect(refused.status == 503, "\(refused.status): \(refused.bodyText)")
            #expect(refused.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
            let problem = try JSONValue(parsing: Array(refused.body))
            #expect(problem["type"] == "urn:parley:problem:out-of-file-descriptors", "\(problem)")
            let detail = problem["detail"]?.stringValue ?? ""
            #expect(detail.contains("ulimit -n"), "\(detail)")
            #expect(refused.headers["Retry-After"] != nil)

            // Nothing was created: the games listed are those made, and each plays and saves.
            let (listed, games) = try await server.get("/v1/games")
            #expect(listed == 200)
            #expect(Set((games["games"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }) == Set(ids))
            for id in ids {
                let line = try await post("/v1/games/\(id)/input", #"{"text": "take apple"}"#)
                #expect(line.status == 200, "\(id): \(line.bodyText)")
                #expect(!line.bodyText.contains(#""type":"problem""#), "\(id): \(line.bodyText)")
            }
            let (health, _) = try await server.get("/v1/health")
            #expect(health == 200)
            // A game ended makes room for a new one.
            let ended = try await client.execute(
                HTTPRequest(method: .delete, url: server.baseURL + "/v1/games/\(ids[0])"))
            #expect(ended.status == 204)
            let again = try await post("/v1/games", "{}")
            #expect(again.status == 201, "\(again.bodyText)")
        }
    }
}
