import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ParleyEngine
import ParleyHost
import ParleyHTTP
import ParleyInspector
import ParleyJSON
import ParleyServer
import SaveGames
import ScriptedModel
import Testing

/// A save folder made by real games (the engine's `GameHost`, as `parley play` runs it), and the inspector serving
/// it on a free loopback port.
final class InspectorFixture: Sendable {
    /// The package's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shipped content pack.
    static func pack() throws -> ContentPack {
        try ContentPack.load(from: root.appendingPathComponent("Content"), displayPath: "Content").get()
    }

    /// The save folder.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-inspect-\(UUID().uuidString)")
    let server: HTTPServer
    let client: HTTPClient
    let inspector: Inspector

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pack = try Self.pack()
        inspector = Inspector(
            store: SaveGameStore(folder: folder),
            replay: .init(
                pack: pack, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) },
                modelName: "scripted"))
        var router = HTTPRouter()
        InspectorRoutes.register(on: &router, inspector: inspector, listingSaves: true)
        server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), router: router)
        client = try HTTPClient()
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `body` with a fixture, and stops it even when `body` throws.
    static func with(_ body: (InspectorFixture) async throws -> Void) async throws {
        let fixture = try InspectorFixture()
        do {
            try await body(fixture)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    func url(_ path: String) -> String { server.baseURL + path }

    /// `GET path` as JSON.
    func json(_ path: String) async throws -> (status: Int, json: JSONValue) {
        let response = try await client.execute(.get(url(path)))
        return (response.status, (try? JSONValue(parsing: Array(response.body))) ?? .null)
    }

    // MARK: - Saves

    /// Plays lines in a new game saved to `slot`, with `models`, and ends it (as quitting does).
    func play(_ lines: [String], slot: String, models: @escaping Game.ModelProvider) async throws {
        let host = GameHost(
            pack: try Self.pack(), models: models, store: SaveGameStore(folder: folder), autosaveSlot: slot)
        await host.begin(continuing: false) { _ in }
        for line in lines { await host.perform(line) { _ in } }
        await host.close()
    }

    /// A model that offers the lantern for 1 gold, which Mira's rules refuse, then answers "Alas." to everything.
    static let refusingModel: Game.ModelProvider = { _, _ in
        MockLanguageModel { request in
            let offered = request.transcript.contains { if case .toolOutput = $0 { true } else { false } }
            return offered
                ? .text("Alas.")
                : .toolCall("offerTrade", arguments: #"{"action":"sell","item":"lantern","quantity":1,"price":1}"#)
        }
    }

    /// The scripted model with a small context window, so that a conversation of a few dozen turns is trimmed.
    static let smallWindowModel: Game.ModelProvider = { npc, world in
        ScriptedModel(npc: npc, world: world, seed: 1, contextSize: 1_200)
    }

    /// The line a player types that is markup: shown as text, it must not run.
    static let scriptLine = "<script>window.parleyInjected = true; document.title = 'injected'</script> <b>bold?</b>"

    /// A save with a refused offer (and its report), then the player's line with a script in it.
    func saveWithARefusedOffer(slot: String = "refused") async throws {
        try await play(["talk to mira", "say \(Self.scriptLine)"], slot: slot, models: Self.refusingModel)
    }

    /// A long conversation with Mira under a small context window: trimmed several times.
    func longConversation(slot: String = "long", turns: Int = 40) async throws {
        var lines = ["talk to mira"]
        for turn in 1...turns {
            lines.append(turn % 3 == 0 ? "how much is the lantern?" : "tell me about the market, friend, turn \(turn)")
        }
        try await play(lines, slot: slot, models: Self.smallWindowModel)
    }
}
