import Foundation
import ParleyJSON
import Testing

/// A real game engine as the client of `parley serve`: Godot 3, headless, runs the example project in
/// `Examples/godot` against the built server, and the game's state, read back through the API, shows the trades
/// it made.
@Suite(
    .enabled(if: GodotHeadless.testsEnabled, Comment(rawValue: GodotHeadless.howToEnable)),
    .timeLimit(.minutes(10)))
struct GodotExampleTests {
    static let project = ParleyBinary.packageRoot.appendingPathComponent("Examples/godot")
    /// How long Godot may take; the scene gives up by itself after 60 s, so this is for a Godot that hangs.
    static let godotTimeLimit: Duration = .seconds(120)

    @Test func theGodotExampleBuysTheLanternAndTheGameStateShowsIt() async throws {
        let folder = PlayTests.Folder()
        // A token makes the server refuse requests without it: the Godot client must send it (from PARLEY_TOKEN).
        let token = "godot-test-\(UUID().uuidString)"
        try await ServedParley.with(saves: folder.url.appendingPathComponent("saves"), token: token) { server in
            let run = try await GodotHeadless.run(
                project: Self.project, arguments: ["--url=\(server.baseURL)"], environment: ["PARLEY_TOKEN": token],
                home: folder.url.appendingPathComponent("home"), timeLimit: Self.godotTimeLimit)
            let ending = run.termination.map(\.description) ?? "killed after \(Self.godotTimeLimit)"
            #expect(run.termination == .exited(0), "godot3-server: \(ending)\n\(run.output)")
            let id = try #require(run.value(after: "game id: "), "Godot printed no 'game id: ' line:\n\(run.output)")

            // The game is still being played: its state, as any client sees it.
            let (status, state) = try await server.get("/v1/games/\(id)")
            try #require(status == 200, "GET /v1/games/\(id): \(status) \(state)")
            let player = try #require(state["player"], "no player in \(state)")
            let inventory = player["inventory"]?.arrayValue ?? []
            func quantity(of item: String) -> Int {
                inventory.filter { $0["id"]?.stringValue == item }.compactMap { $0["quantity"]?.intValue }.reduce(0, +)
            }
            #expect(quantity(of: "lantern") == 1, "\(player)")
            #expect(quantity(of: "rusty_sword") == 0, "\(player)")
            // 14 gold at the start (Content/world.json), 8 more for the sword (Brannoc pays half its value of 16),
            // then 20 down for the lantern (Mira's lowest price: its value, 20).
            #expect(player["gold"]?.intValue == 2, "\(player)")
            #expect(state["talkingTo"]?["id"]?.stringValue == "mira", "\(state)")
            #expect(state["offers"]?.arrayValue?.isEmpty == true, "an offer still waits: \(state)")

            // The slot it saved to, and loaded back from.
            let (savesStatus, saves) = try await server.get("/v1/saves")
            #expect(savesStatus == 200)
            let slots = saves["saves"]?.arrayValue?.compactMap { $0["slot"]?.stringValue } ?? []
            #expect(slots.contains("godot-example"), "\(saves)")

            // The server served a game engine and still stops as it should on SIGTERM: it saves every game, then
            // exits with 128 + the signal's number, as a shell reports a process the signal ended.
            let termination = await server.stop()
            #expect(termination == .exited(0), "parley serve: \(termination)\n\(server.errorOutput)")
        }
    }
}
