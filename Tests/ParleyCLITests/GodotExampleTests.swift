import Foundation
import ParleyJSON
import Testing

/// A real game engine as the client of `parley serve`: Godot 3, headless, runs the example project in
/// `Examples/godot` against the built server. The example is a game with a world of its own: it pushes its gold and
/// pack, answers Sergeant Oona's `openGate` action while her line waits for it, and tells her that its player draws
/// a sword. The game's state and Oona's conversation, read back through the API, show all three. With espeak-ng, the
/// server speaks (`--speech espeak`) and the example loads each spoken line's WAV into an `AudioStreamSample` and
/// plays it (headless, without sound), printing what it loaded.
@Suite(
    .enabled(if: GodotHeadless.testsEnabled, Comment(rawValue: GodotHeadless.howToEnable)),
    .timeLimit(.minutes(10)))
struct GodotExampleTests {
    static let project = ParleyBinary.packageRoot.appendingPathComponent("Examples/godot")
    /// How long Godot may take; the scene gives up by itself after 120 s, so this is for a Godot that hangs.
    static let godotTimeLimit: Duration = .seconds(240)
    /// Whether the server can speak here: espeak-ng's library loads.
    static let speaks = dlopen("libespeak-ng.so.1", RTLD_LAZY) != nil

    /// The shipped content pack, copied into `folder`, with `openGate` waiting for the game's answer for the longest
    /// an action may (60 s) rather than 5 s: the example answers at once, but a busy machine must not make the test
    /// a race against the clock.
    static func content(in folder: URL) throws -> URL {
        let pack = folder.appendingPathComponent("Content")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ParleyBinary.packageRoot.appendingPathComponent("Content"), to: pack)
        let file = pack.appendingPathComponent("actions.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let longer = text.replacingOccurrences(of: #""timeoutSeconds": 5"#, with: #""timeoutSeconds": 60"#)
        try #require(longer != text, "Content/actions.json no longer has openGate's \"timeoutSeconds\": 5")
        try longer.write(to: file, atomically: true, encoding: .utf8)
        return pack
    }

    @Test func theGodotExamplePushesItsWorldAnswersAnActionAndTellsAnEvent() async throws {
        let folder = PlayTests.Folder()
        // A token makes the server refuse requests without it: the Godot client must send it (from PARLEY_TOKEN),
        // on its listener's stream too.
        let token = "godot-test-\(UUID().uuidString)"
        let content = try Self.content(in: folder.url)
        try await ServedParley.with(
            saves: folder.url.appendingPathComponent("saves"), token: token, content: content,
            arguments: Self.speaks ? ["--speech", "espeak"] : []
        ) { server in
            let run = try await GodotHeadless.run(
                project: Self.project, arguments: ["--url=\(server.baseURL)"], environment: ["PARLEY_TOKEN": token],
                home: folder.url.appendingPathComponent("home"), timeLimit: Self.godotTimeLimit)
            let ending = run.termination.map(\.description) ?? "killed after \(Self.godotTimeLimit)"
            #expect(run.termination == .exited(0), "godot3-server: \(ending)\n\(run.output)")
            let id = try #require(run.value(after: "game id: "), "Godot printed no 'game id: ' line:\n\(run.output)")

            // The pushed state: the game's own name, gold and pack, not the world's start (Traveller, 14 gold, bread,
            // a letter); then the lantern it bought. 10 gold pushed, 20 found and pushed, 25 for the lantern.
            let (status, state) = try await server.get("/v1/games/\(id)")
            try #require(status == 200, "GET /v1/games/\(id): \(status) \(state)")
            let player = try #require(state["player"], "no player in \(state)")
            #expect(player["name"]?.stringValue == "Wren", "\(player)")
            #expect(player["gold"]?.intValue == 5, "\(player)")
            let inventory = Dictionary(
                (player["inventory"]?.arrayValue ?? []).compactMap { stack in
                    stack["id"]?.stringValue.flatMap { id in stack["quantity"]?.intValue.map { (id, $0) } }
                }, uniquingKeysWith: +)
            #expect(inventory == ["rusty_sword": 1, "apple": 3, "lantern": 1], "\(player)")
            #expect(state["offers"]?.arrayValue?.isEmpty == true, "an offer still waits: \(state)")

            // The action: the listener heard it while Oona's line waited, and the game answered it; what it answered
            // is in Oona's conversation (the tool's output) and in her reply.
            let output = run.output.split(separator: "\n")
            #expect(
                output.contains { $0.contains("[action ") && $0.contains("openGate") && $0.contains("Wren") },
                "no action event printed:\n\(run.output)")
            let answer = "The North Gate grinds open for Wren."
            #expect(
                output.contains { $0.contains("Sergeant Oona Vell: ") && $0.contains(answer) },
                "Oona's reply does not say the game's answer:\n\(run.output)")
            let (transcriptStatus, transcript) = try await server.get("/v1/games/\(id)/transcript/oona")
            #expect(transcriptStatus == 200)
            let conversation = transcript.jsonString()
            #expect(conversation.contains(answer), "\(conversation)")

            // The event: it entered Oona's conversation, and she reacted to it by its kind (weaponDrawn).
            #expect(conversation.contains("Wren draws a sword."), "\(conversation)")
            #expect(
                output.contains { $0.hasPrefix("Sergeant Oona Vell reacts: Rule 3, citizen: no bare steel") },
                "no reaction to the sword:\n\(run.output)")

            // The spoken lines: each WAV the server sent, loaded as Godot's 16-bit mono sample, seconds long; none
            // when the server does not speak.
            let voices = output.filter { $0.contains("(voice: ") }
            if Self.speaks {
                #expect(voices.count >= 3, "not every line was spoken:\n\(run.output)")
                for voice in voices {
                    #expect(voice.contains("16-bit mono at 22050 Hz"), "\(voice)")
                    let seconds = voice.components(separatedBy: "'s line, ").last?.split(separator: " ").first
                        .flatMap { Double($0) }
                    #expect((seconds ?? 0) > 0.5, "\(voice)")
                    let words = voice.split(separator: " ")
                    func number(before word: String) -> Int? {
                        words.firstIndex { $0.hasPrefix(word) }.flatMap { $0 > 0 ? Int(words[$0 - 1]) : nil }
                    }
                    #expect((number(before: "visemes") ?? 0) > 3, "\(voice)")
                    // Lines queue, never cut one another short: each says how many wait behind the one playing.
                    #expect(number(before: "waiting") != nil, "\(voice)")
                }
                #expect(voices.contains { $0.contains("Mira Quickcoin's line") })
                #expect(voices.contains { $0.contains("Sergeant Oona Vell's line") })
            } else {
                #expect(voices.isEmpty, "\(voices)")
            }

            // The slot it saved to, and loaded back from.
            let (savesStatus, saves) = try await server.get("/v1/saves")
            #expect(savesStatus == 200)
            let slots = saves["saves"]?.arrayValue?.compactMap { $0["slot"]?.stringValue } ?? []
            #expect(slots.contains("godot-example"), "\(saves)")

            // The server served a game engine and its listener, and still stops as it should on SIGTERM: it saves
            // every game, then exits with 0.
            let termination = await server.stop()
            #expect(termination == .exited(0), "parley serve: \(termination)\n\(server.errorOutput)")
        }
    }
}
