import Foundation
import GameWorld
import HTTPTestSupport
import LanguageModels
import OpenAICompatible
import ParleyEngine
import ParleyJSON
import SaveGames
import Synchronization
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

    @Test func theAPIKeyIsInNoFileOrOutputOfTheCommandLine() throws {
        let key = Self.secret()
        let server = try ChatServer(.script(Self.refusedOfferScript))
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves").path
        let exports = work.url.appendingPathComponent("exports").path
        let environment = ["OPENAI_API_KEY": key, "PARLEY_MODEL": server.server.baseURL + "/v1"]
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        var runs: [ParleyProcess.Run] = []
        runs.append(
            try ParleyProcess.run(
                [
                    "--content", packageRoot.appendingPathComponent("Content").path, "--saves", saves,
                    "--feedback-dir", work.url.appendingPathComponent("feedback").path,
                ],
                in: work.url,
                input: "talk to mira\nsell me the lantern for 1 gold\nreport wrong price\nsave slot1\nquit\n",
                environment: environment))
        #expect(runs[0].status == 0, "\(runs[0].err)")
        for arguments in [
            ["saves", "list", "--folder", saves], ["saves", "show", "slot1", "--folder", saves],
            ["saves", "export", "slot1", "--folder", saves, "--out", exports + "/slot1.json"],
            ["transcript", "slot1", "mira", "--folder", saves, "--json", "--annotated"],
            ["feedback", "list", "--folder", saves],
            ["feedback", "export", "--all", "--folder", saves, "--out", exports],
        ] {
            runs.append(try ParleyProcess.run(arguments, in: work.url, environment: environment))
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
    func anExportWritesOnlyTheFileItWasGiven(_ command: String) throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves").path
        let play = try ParleyProcess.run(
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
        let export = try ParleyProcess.run(
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

    @Test func feedbackExportKeepsEveryReportInsideTheOutputFolder() throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        // A report whose id (from a shared or tampered save) tries to climb out of the export folder.
        try Self.saveWithReports(ids: ["../../escaped-report", "plain-report"], in: saves)
        let out = work.url.appendingPathComponent("a/b/out")
        let run = try ParleyProcess.run(
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

    @Test func feedbackExportGivesIdsThatMakeOneNameAFileEach() throws {
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves")
        let ids = ["a/b", "a-b", "A.B", "..", "."]
        try Self.saveWithReports(ids: ids, in: saves)
        let out = work.url.appendingPathComponent("out")
        let run = try ParleyProcess.run(
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

    @Test func feedbackExportNeverFollowsALinkInTheOutputFolder() throws {
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

        let run = try ParleyProcess.run(
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
