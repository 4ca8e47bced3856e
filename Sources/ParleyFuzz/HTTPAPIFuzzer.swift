import Foundation
import GameWorld
import Glibc
import LanguageModels
import LanguageModelsTesting
import ParleyAPI
import ParleyJSON
import ParleyServer
import SaveGames

/// Fuzzes `parley serve`'s HTTP API in process: the real server (``APIGames`` behind ``APIRoutes`` on an
/// ``HTTPServer`` on 127.0.0.1, a free port) over a save folder of its own, and seeded random requests from several
/// concurrent clients, each a plain TCP connection so that anything can be sent.
///
/// The requests mix methods (`GET`, `POST`, `PUT`, `PATCH`, `DELETE`, `HEAD`, `OPTIONS`, made-up ones), paths (every
/// route, with live and made-up game ids, and slot names that are encoded, traversing, spaced, empty or long), header
/// fields (`Host` of loopback and other names, `Origin`, `Sec-Fetch-Site`, `Content-Type`) and bodies (valid JSON for
/// the route, and mutations of it); besides, the clients start, save and load games over a few shared slot names at
/// once. The invariants, checked as it goes and at the end:
/// - **No crash**: every request gets an answer, none is `500`, and `GET /v1/health` answers `200` (a crash would end
///   the process);
/// - **No save shared by two games**: the slots of `GET /v1/games` are distinct, and so are the `game`s of
///   `GET /v1/saves`, which agree with them;
/// - **No write outside the folder**: the folders around the save folder hold, at the end, what they held at the
///   start, and no `.parley` file appeared in the temporary folder.
public enum HTTPAPIFuzzer {
    /// The slot names requests use: a few shared (saved and loaded by several games at once) and hostile ones.
    static let slots = [
        "shared-1", "shared-2", "shared-3", "autosave", "autosave-2", "a b", "  ", "", "..", ".", "../escape",
        "../../escape", "%2e%2e%2fescape", "..%2fescape", "a/b", "CON", "nul", "名前", "x\u{0}y", "-rf",
        String(repeating: "long", count: 80), ".hidden", "slot.parley", "~", "$HOME",
    ]
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "BREW", "get"]
    static let lines = [
        "look", "talk to npc_0", "hello", "save shared-1", "load shared-2", "save ../escape", "load autosave",
        "inventory", "take item_0", "go north", "bye", "saves", "quit",
    ]

    /// Runs the fuzzer in a temporary folder, removed afterwards.
    ///
    /// - Parameters:
    ///   - requests: How many random requests to send, over all clients.
    ///   - clients: How many clients send at once.
    ///   - seed: The seed; the same seed gives the same requests (their interleaving varies).
    /// - Returns: What happened: accepted counts the `2xx` answers, rejected the `4xx` and `503` ones.
    /// - Throws: When the server cannot start (not a finding: the fuzzer could not start).
    public static func run(requests: Int, clients: Int = 4, seed: UInt64) async throws -> FuzzSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = FuzzSummary(target: "HTTP API, \(clients) clients at once", seed: seed)
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("parley-httpfuzz-\(RandomID.hexDigits(16))")
        // The saves are two folders down, so a slot that climbs out lands in `root`, whose listing is compared.
        let folder = root.appendingPathComponent("one/two/saves")
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: root) }
        let outsideBefore = listing(root, skipping: folder)
        let temporaryBefore = parleyFiles(in: manager.temporaryDirectory)

        let model = MockLanguageModel { _ in .text("Hm.") }
        var configuration = APIGames.Configuration(
            pack: SaveLoaderFuzzer.pack, models: { _, _ in model }, store: SaveGameStore(folder: folder),
            maximumGames: 24)
        configuration.replayTimeLimit = .seconds(5)
        let games = APIGames(configuration: configuration)
        var serverConfiguration = HTTPServer.Configuration(
            timeouts: .init(
                header: .seconds(600), body: .seconds(600), idle: .seconds(600), write: .seconds(600),
                linger: .seconds(1), shutdownGrace: .seconds(30)))
        serverConfiguration.limits.maximumBodySize = 64 * 1024
        let server = try HTTPServer(configuration: serverConfiguration, router: APIRoutes.router(for: games))
        let port = server.port

        let results = await withTaskGroup(of: FuzzSummary.self) { group in
            for client in 0..<max(1, clients) {
                let share = requests / max(1, clients) + (client < requests % max(1, clients) ? 1 : 0)
                group.addTask {
                    let clientSeed = seed &+ UInt64(client) &* 0x9E37_79B9_7F4A_7C15
                    var sender = Client(port: port, seed: clientSeed, number: client)
                    return await sender.send(share)
                }
            }
            var all: [FuzzSummary] = []
            for await result in group { all.append(result) }
            return all
        }
        for result in results {
            summary.iterations += result.iterations
            summary.accepted += result.accepted
            summary.rejected += result.rejected
            for finding in result.findings { summary.record(finding) }
            summary.findingCount += result.findingCount - result.findings.count
        }
        for problem in await invariantProblems(port: port) {
            summary.record(.init(iteration: requests, problem: problem, excerpt: "after every request"))
        }
        await server.stop()
        await games.endAll()
        let outsideAfter = listing(root, skipping: folder)
        if outsideAfter != outsideBefore {
            summary.record(
                .init(
                    iteration: requests, problem: "files were written outside the save folder",
                    excerpt: "\(outsideAfter.subtracting(outsideBefore).sorted().prefix(5))"))
        }
        let temporaryAfter = parleyFiles(in: manager.temporaryDirectory)
        if !temporaryAfter.subtracting(temporaryBefore).isEmpty {
            summary.record(
                .init(
                    iteration: requests, problem: "a save file appeared in the temporary folder",
                    excerpt: "\(temporaryAfter.subtracting(temporaryBefore).sorted().prefix(5))"))
        }
        summary.duration = clock.now - start
        return summary
    }

    // MARK: - Invariants

    /// What is wrong with the server now: not answering its health check, a slot played by two games, a save whose
    /// `game` is not the game playing it.
    static func invariantProblems(port: Int) async -> [String] {
        var problems: [String] = []
        let health = await RawExchange.send(
            "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
        if health?.status != 200 {
            problems.append("GET /v1/health answered \(health.map { String($0.status) } ?? "nothing")")
        }
        let gamesAnswer = await RawExchange.send(
            "GET /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
        let savesAnswer = await RawExchange.send(
            "GET /v1/saves HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
        guard let gamesBody = gamesAnswer?.body, let savesBody = savesAnswer?.body,
            let games = (try? JSONValue(parsing: gamesBody))?["games"]?.arrayValue,
            let saves = (try? JSONValue(parsing: savesBody))?["saves"]?.arrayValue
        else {
            return problems + ["GET /v1/games or GET /v1/saves did not answer JSON"]
        }
        var playing: [String: String] = [:]
        for game in games {
            guard let slot = game["slot"]?.stringValue, let id = game["id"]?.stringValue else { continue }
            if let other = playing[slot] { problems.append("games \(other) and \(id) both play slot \(slot)") }
            playing[slot] = id
        }
        var claimed: [String: String] = [:]
        for save in saves {
            guard let id = save["game"]?.stringValue, let slot = save["slot"]?.stringValue else { continue }
            if let other = claimed[id] { problems.append("game \(id) plays both \(other) and \(slot)") }
            claimed[id] = slot
            if let player = playing[slot], player != id {
                problems.append("GET /v1/saves says \(id) plays \(slot), GET /v1/games says \(player)")
            }
        }
        return problems
    }

    /// Every path under `root` but those under `skipped`, relative to `root`.
    static func listing(_ root: URL, skipping skipped: URL) -> Set<String> {
        let base = root.standardizedFileURL.path
        let skippedPath = skipped.standardizedFileURL.path
        var paths: Set<String> = []
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return paths }
        while let relative = enumerator.nextObject() as? String {
            let path = base + "/" + relative
            if path == skippedPath || path.hasPrefix(skippedPath + "/") { continue }
            paths.insert(relative)
        }
        return paths
    }

    /// The `.parley` files directly in a folder.
    static func parleyFiles(in folder: URL) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Set(names.filter { $0.hasSuffix(".parley") })
    }

    // MARK: - A client

    /// One client's seeded stream of requests.
    struct Client {
        let port: Int
        let number: Int
        var random: SplitMix64
        var mutator: Mutator
        /// The games this client started and has not seen end.
        var games: [String] = []

        init(port: Int, seed: UInt64, number: Int) {
            self.port = port
            self.number = number
            random = SplitMix64(seed: seed)
            mutator = Mutator(seed: seed ^ 0xF00D, words: ["\"slot\"", "\"load\"", "\"text\"", "\"continue\""])
        }

        mutating func send(_ count: Int) async -> FuzzSummary {
            var summary = FuzzSummary(target: "client \(number)", seed: 0)
            for index in 0..<count {
                summary.iterations += 1
                let request = next()
                guard let response = await RawExchange.send(request, port: port) else {
                    summary.record(.init(iteration: index, problem: "no answer", excerpt: Self.excerpt(request)))
                    continue
                }
                switch response.status {
                case 200..<300: summary.accepted += 1
                case 400..<500, 503: summary.rejected += 1
                default:
                    summary.record(
                        .init(
                            iteration: index, problem: "answered \(response.status)",
                            excerpt: Self.excerpt(request) + " -> "
                                + String(decoding: response.body.prefix(300), as: UTF8.self)))
                }
                if response.status == 201, let id = (try? JSONValue(parsing: response.body))?["id"]?.stringValue {
                    games.append(id)
                }
                if games.count > 6 { games.removeFirst() }
            }
            return summary
        }

        static func excerpt(_ request: String) -> String {
            String(request.prefix(200)).debugDescription
        }

        /// A game id: one of this client's, or a made-up one.
        mutating func game() -> String {
            if !games.isEmpty, random.chance(85) { return random.pick(games) }
            return random.pick(["0123456789abcdef", "nope", "..", "%2e%2e", "g1", String(repeating: "f", count: 300)])
        }

        /// A slot name, percent-encoded for a path or not.
        mutating func slot(forPath: Bool) -> String {
            let name = random.pick(HTTPAPIFuzzer.slots)
            guard forPath else { return name }
            if random.chance(30) { return name }  // raw: may not even be a valid target
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "/")
            return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
        }

        mutating func jsonString(_ text: String) -> String { JSONValue.string(text).jsonString() }

        /// The next request, as bytes of text.
        mutating func next() -> String {
            let method: String
            let path: String
            var body: String?
            switch random.next(below: 12) {
            case 0, 1:
                method = "POST"
                path = "/v1/games"
                body = random.pick([
                    "{}", #"{"load": \#(jsonString(slot(forPath: false)))}"#, #"{"continue": true}"#, "",
                    #"{"load": "shared-1", "continue": true}"#,
                ])
            case 2, 3:
                method = "POST"
                path = "/v1/games/\(game())/save"
                body = #"{"slot": \#(jsonString(slot(forPath: false)))}"#
            case 4, 5:
                method = "POST"
                path = "/v1/games/\(game())/input"
                body = #"{"text": \#(jsonString(random.pick(HTTPAPIFuzzer.lines)))}"#
            case 6:
                method = random.pick(["GET", "DELETE"])
                path = "/v1/games/\(game())"
            case 7:
                method = random.pick(["GET", "POST", "DELETE"])
                path = "/v1/saves/\(slot(forPath: true))"
                    + random.pick(["", "/feedback", "/replay", "/conversations/npc_0", "/conversations/..%2f"])
            case 8:
                method = "GET"
                path = random.pick(["/v1/games", "/v1/saves", "/v1/health", "/inspect", "/inspect/saves/shared-1"])
            default:
                method = random.pick(HTTPAPIFuzzer.methods)
                path = random.pick([
                    "/v1/games", "/v1/games/\(game())/state", "/v1/games/\(game())/events",
                    "/v1/games/\(game())/npcs/npc_0/say", "/v1/saves/\(slot(forPath: true))", "/", "*",
                    "/v1/../v1/games", "/v1//games", "/v1/games?x=%zz",
                ])
                body = random.chance(50) ? #"{"text": "hi", "player": {"gold": 5}}"# : nil
            }
            if var bytes = body.map({ Array($0.utf8) }), random.chance(25) {
                bytes = mutator.mutate(bytes)
                body = String(decoding: bytes, as: UTF8.self)
            }
            var head = "\(method) \(path) HTTP/1.1\r\n"
            switch random.next(below: 10) {
            case 0: head += "Host: evil.example:\(port)\r\n"
            case 1: break  // no Host
            case 2: head += "Host: localhost:\(port)\r\n"
            case 3: head += "Host: [::1]:\(port)\r\n"
            default: head += "Host: 127.0.0.1:\(port)\r\n"
            }
            switch random.next(below: 8) {
            case 0: head += "Origin: http://evil.example\r\n"
            case 1: head += "Origin: http://127.0.0.1:\(port)\r\n"
            case 2: head += "Origin: null\r\n"
            default: break
            }
            if random.chance(15) { head += "Sec-Fetch-Site: \(random.pick(["cross-site", "same-origin", "none"]))\r\n" }
            if body != nil || random.chance(10) {
                head += "Content-Type: "
                    + random.pick([
                        "application/json", "application/json", "application/json", "text/plain",
                        "application/x-www-form-urlencoded", "application/json; charset=utf-8", "",
                    ]) + "\r\n"
            }
            let payload = body ?? ""
            head += "Content-Length: \(payload.utf8.count)\r\nConnection: close\r\n\r\n"
            return head + payload
        }
    }
}
