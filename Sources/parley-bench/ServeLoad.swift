import Foundation
import GameWorld
import ParleyAPI
import ParleyEngine
import ParleyHTTP
import ParleyJSON
import ParleyServer
import SaveGames
import ScriptedModel

/// Scenario 11: `parley serve` under load. Many games at once, each playing the same 20 lines, through the HTTP API
/// (an `HTTPServer` serving `APIRoutes` on loopback, called with the project's libcurl client) and, in the same run,
/// the same games and lines through `APIGame.input` in the process: the difference is what HTTP adds to a turn
/// (parsing, routing, JSON, the loopback round trip, the client) under the same concurrency.
enum ServeLoad {
    /// The lines each game plays, in order: talk, prices, an offer taken and one declined, walking, small talk.
    static let lines = [
        "talk to mira", "how much is the lantern?", "what do you sell?", "how much is the rope?", "I will take it",
        "accept", "do you have bread?", "how much for 2 candles?", "decline", "thanks", "bye", "go east",
        "talk to brannoc", "hello", "what do you sell?", "how much is the dagger?", "bye", "go west", "look", "i",
    ]

    /// What one way of playing measured.
    struct Result {
        var turns: [Double] = []
        var errors = 0
        var seconds: Double = 0

        var throughput: Double { Double(turns.count) / max(seconds, .leastNonzeroMagnitude) }
    }

    static func run(quick: Bool, games: Int?) async throws {
        let gameCount = games ?? (quick ? 20 : 1_000)
        let pack = try BenchContent.shippedPack()
        let models: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }
        report("## 11. `parley serve` under load: \(gameCount) games at once × \(lines.count) turns, scripted model")
        report("")

        // A first round warms what every game shares (the world's indexes, the save folder), then the measured one.
        _ = try await playInProcess(games: min(gameCount, 10), pack: pack, models: models)
        let inProcess = try await playInProcess(games: gameCount, pack: pack, models: models)
        let overHTTP = try await playOverHTTP(games: gameCount, pack: pack, models: models)
        let added = try await pairedOverhead(pairs: quick ? 3 : 10, pack: pack, models: models)

        report("| Through | Turns | Errors | Wall s | Turns per s | Turn p50 ms | Turn p95 ms |")
        report("|---|---:|---:|---:|---:|---:|---:|")
        for (name, result) in [("in process (`APIGame.input`)", inProcess), ("HTTP (`parley serve`'s routes)", overHTTP)] {
            report(
                "| \(name) | \(result.turns.count) | \(result.errors) | \(format(result.seconds, digits: 1)) "
                    + "| \(format(result.throughput, digits: 0)) | \(format(Measure.median(result.turns), digits: 2)) "
                    + "| \(format(Measure.percentile(result.turns, 95), digits: 2)) |")
        }
        report("")
        report(
            "Under load the two rows differ mostly by noise: a turn waits for the other games' turns on two cores. What "
                + "HTTP adds is measured in pairs instead: two games playing the same lines one at a time, one in "
                + "process and one over HTTP, turn for turn, without saves (\(added.count) pairs; the same work, "
                + "deterministic).")
        report("")
        let p95 = Measure.percentile(added, 95)
        report(
            "Added by HTTP per turn: p50 \(format(Measure.median(added), digits: 3)) ms, p95 \(format(p95, digits: 3)) ms. "
                + "Target: ≤ 2 ms p95 added, 0 errors: \(verdict(p95 <= 2 && overHTTP.errors == 0))"
                + (overHTTP.errors == 0 ? "" : " (\(overHTTP.errors) errors)") + ".")
        report("")
        try await SavesInFlight.run(games: quick ? 20 : min(gameCount, 200), turns: quick ? 5 : 10)
    }

    /// What HTTP adds to a turn, in milliseconds, from pairs of the same turn: for each pair of games (one in process,
    /// one over HTTP, both new and played the same lines in the same order, neither saved), the HTTP turn's time less
    /// the in-process one's.
    static func pairedOverhead(pairs: Int, pack: ContentPack, models: @escaping Game.ModelProvider) async throws
        -> [Double]
    {
        // Without saves: a save's time to the disk varies far more than what HTTP adds, in both games of a pair.
        let games = APIGames(configuration: .init(pack: pack, models: models, store: nil, maximumGames: 4))
        let server = try HTTPServer(configuration: HTTPServer.Configuration(), router: APIRoutes.router(for: games))
        let client = try HTTPClient()
        let clock = ContinuousClock()
        var added: [Double] = []
        for _ in 0..<pairs {
            let local = try await games.start(.new).game
            let response = try await client.execute(.postJSON(server.baseURL + "/v1/games", body: Data("{}".utf8)))
            guard let id = try JSONValue(parsing: Array(response.body))["id"]?.stringValue else {
                throw BenchError("POST /v1/games answered \(response.status): \(response.bodyText)")
            }
            for line in lines {
                let start = clock.now
                _ = await local.input(line)
                let inProcess = clock.now - start
                let body = Data((["text": .string(line)] as JSONValue).jsonString().utf8)
                let again = clock.now
                let answer = try await client.execute(.postJSON(server.baseURL + "/v1/games/\(id)/input", body: body))
                guard answer.status == 200 else { throw BenchError("input answered \(answer.status)") }
                added.append(((clock.now - again) - inProcess).milliseconds)
            }
            try await games.end(local.id)
            try await games.end(id)
        }
        await server.stop()
        return added
    }

    /// The games played through `APIGame.input`, all at once.
    static func playInProcess(games count: Int, pack: ContentPack, models: @escaping Game.ModelProvider) async throws
        -> Result
    {
        let folder = try BenchContent.temporaryFolder("serve-in-process")
        defer { try? FileManager.default.removeItem(at: folder) }
        let games = APIGames(
            configuration: .init(pack: pack, models: models, store: SaveGameStore(folder: folder), maximumGames: count))
        var started: [APIGame] = []
        for _ in 0..<count { started.append(try await games.start(.new).game) }
        let clock = ContinuousClock()
        let begin = clock.now
        let samples = await withTaskGroup(of: [Double].self) { group in
            for game in started {
                group.addTask {
                    var turns: [Double] = []
                    for line in lines {
                        let start = clock.now
                        _ = await game.input(line)
                        turns.append((clock.now - start).milliseconds)
                    }
                    return turns
                }
            }
            var all: [Double] = []
            for await turns in group { all += turns }
            return all
        }
        let seconds = Double((clock.now - begin).milliseconds) / 1000
        await games.endAll()
        return Result(turns: samples, errors: 0, seconds: seconds)
    }

    /// The games played over HTTP, all at once: each starts with `POST /v1/games`, then sends its lines.
    static func playOverHTTP(games count: Int, pack: ContentPack, models: @escaping Game.ModelProvider) async throws
        -> Result
    {
        let folder = try BenchContent.temporaryFolder("serve-http")
        defer { try? FileManager.default.removeItem(at: folder) }
        let games = APIGames(
            configuration: .init(pack: pack, models: models, store: SaveGameStore(folder: folder), maximumGames: count))
        var configuration = HTTPServer.Configuration()
        configuration.limits.maximumConnections = max(256, count * 2)
        let server = try HTTPServer(configuration: configuration, router: APIRoutes.router(for: games))
        let client = try HTTPClient()
        var ids: [String] = []
        for _ in 0..<count {
            let response = try await client.execute(.postJSON(server.baseURL + "/v1/games", body: Data("{}".utf8)))
            guard response.status == 201, let id = try JSONValue(parsing: Array(response.body))["id"]?.stringValue
            else { throw BenchError("POST /v1/games answered \(response.status): \(response.bodyText)") }
            ids.append(id)
        }
        let clock = ContinuousClock()
        let begin = clock.now
        let base = server.baseURL
        let results = await withTaskGroup(of: ([Double], Int).self) { group in
            for id in ids {
                group.addTask {
                    var turns: [Double] = []
                    var errors = 0
                    for line in lines {
                        let body = Data((["text": .string(line)] as JSONValue).jsonString().utf8)
                        let start = clock.now
                        let response = try? await client.execute(.postJSON(base + "/v1/games/\(id)/input", body: body))
                        turns.append((clock.now - start).milliseconds)
                        if response?.status != 200 { errors += 1 }
                    }
                    return (turns, errors)
                }
            }
            var all: ([Double], Int) = ([], 0)
            for await (turns, errors) in group {
                all.0 += turns
                all.1 += errors
            }
            return all
        }
        let seconds = Double((clock.now - begin).milliseconds) / 1000
        await server.stop()
        await games.endAll()
        return Result(turns: results.0, errors: results.1, seconds: seconds)
    }
}
