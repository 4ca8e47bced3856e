import Foundation
import HTTPTestSupport
import LanguageModels
import LanguageModelsTesting
import OpenAICompatible
import ParleyEngine
import ParleyHost
import ParleyJSON
import SaveGames
import Synchronization
import Testing

/// A model server that echoes the request's `Authorization` header (in a 401 body, a 500 body, an error event in
/// the middle of a stream, the model's own words) does not get the API key into a save, a recording, a feedback
/// report, an export or anything printed.
@Suite(.timeLimit(.minutes(10))) struct EchoedKeyTests {
    /// How the server echoes the key, for `/chat/completions`.
    enum Echo: Sendable {
        /// Streams a reply that quotes the header, in small pieces.
        case inTheReply
        /// A 401 whose message quotes the header.
        case unauthorized
        /// A 500 whose message quotes the header.
        case failing
        /// Starts a reply, then an error event that quotes the header.
        case midStream
    }

    /// A loopback server that echoes the `Authorization` header as `echo` says.
    final class EchoServer: Sendable {
        /// The echo, shared with the server's handler.
        final class Switch: Sendable {
            let echo = Mutex(Echo.inTheReply)
        }

        let server: LoopbackHTTPServer
        private let current = Switch()

        init() throws {
            let current = self.current
            server = try LoopbackHTTPServer { request in
                guard request.path.hasSuffix("/chat/completions") else { return .text("not found", status: 404) }
                let header = request.header("Authorization") ?? "(none)"
                switch current.echo.withLock({ $0 }) {
                case .inTheReply:
                    // Split so that the key falls across events.
                    let reply = "You sent \(header) and I keep it."
                    var pieces: [String] = []
                    var rest = Substring(reply)
                    while !rest.isEmpty {
                        pieces.append(String(rest.prefix(5)))
                        rest = rest.dropFirst(5)
                    }
                    return .eventStream(
                        pieces.map { ChatStreams.chunk(["content": .string($0)]) }
                            + [ChatStreams.chunk([:], finish: "stop"), "data: [DONE]\n\n"])
                case .unauthorized:
                    return .json(#"{"error":{"message":"invalid authorization: \#(header)"}}"#, status: 401)
                case .failing:
                    return .json(#"{"error":{"message":"crashed while handling \#(header)"}}"#, status: 500)
                case .midStream:
                    return .eventStream(
                        Array(ChatStreams.text("One moment").dropLast(2))
                            + [#"data: {"error":{"message":"upstream rejected \#(header)"}}"# + "\n\n"])
                }
            }
        }

        deinit { server.stop() }

        func set(_ next: Echo) { current.echo.withLock { $0 = next } }

        var baseURL: String { server.baseURL + "/v1" }
    }

    static func secret() -> String { "sk-parley-echo-\(UUID().uuidString)" }

    /// Every file under the folders whose bytes contain `key`.
    static func files(containing key: String, in folders: [TemporaryFolder]) -> [String] {
        folders.flatMap(\.files).filter { url in
            FileManager.default.contents(atPath: url.path)?.range(of: Data(key.utf8)) != nil
        }.map(\.path)
    }

    @Test func anEchoedKeyIsInNoFileAndNoOutputOfAGame() async throws {
        let key = Self.secret()
        let server = try EchoServer()
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL, apiKey: key, contextSize: 8_192, toolCalling: .native)
        configuration.maximumRetries = 0
        let model = try OpenAICompatibleLanguageModel(configuration: configuration)
        let saves = TemporaryFolder()
        let feedback = TemporaryFolder()
        let store = SaveGameStore(folder: saves.url)
        let host = GameHost(
            pack: try shippedPack(), models: { _, _ in model }, store: store, feedbackFolder: feedback.url)
        let screen = Screen()

        await host.perform("talk to mira", output: screen.record)
        #expect(screen.speech.contains("<redacted>"), "the reply quoted the key: \(screen.text)")
        for echo in [Echo.unauthorized, .failing, .midStream] {
            server.set(echo)
            await host.perform("what did you say?", output: screen.record)
        }
        #expect(screen.problems.count == 3, "\(screen.text)")
        server.set(.inTheReply)
        for line in ["say it again", "report you repeated my key", "save slot1"] {
            await host.perform(line, output: screen.record)
        }

        // The key went out with every request, and came back in every answer.
        #expect(server.server.requests.filter { $0.path.hasSuffix("/chat/completions") }.count == 5)
        let recordings = await host.game.recordings
        #expect(recordings.filter { $0.failure != nil }.count == 3)
        #expect(await host.game.feedback.count == 1)

        #expect(Self.files(containing: key, in: [saves, feedback]) == [])
        for slot in ["slot1", "autosave"] {
            #expect(!(try store.export(slot: slot).jsonString()).contains(key), "export of \(slot)")
            let file = try store.open(slot: slot, access: .readOnly)
            #expect(!(try file.recordings()).contains { $0.json.contains(key) }, "recordings of \(slot)")
        }
        #expect(!recordings.contains { $0.jsonValue.jsonString().contains(key) })
        #expect(!screen.text.contains(key))
    }

    /// A backend of someone else's making whose error quotes a bearer token: the game still keeps and shows none.
    @Test func aBearerTokenInAnyBackendsErrorIsNeitherRecordedNorShown() async throws {
        struct Leaky: Error, CustomStringConvertible {
            var description: String { "the proxy refused Authorization: Bearer tok_0123456789abcdefXYZ" }
        }
        let model = MockLanguageModel(replies: [.failure(Leaky())])
        let game = Game(state: try shippedPack().initialState, models: { _, _ in model })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        let failure = try #require(await game.recordings.last?.failure)
        #expect(failure.contains("Bearer <redacted>"), "\(failure)")
        #expect(!failure.contains("tok_0123456789abcdefXYZ"))
        #expect(screen.problems.count == 1, "\(screen.text)")
        #expect(!screen.text.contains("tok_0123456789abcdefXYZ"), "\(screen.text)")
    }

    @Test func anEchoedKeyIsInNoFileAndNoOutputOfTheCommandLine() async throws {
        let key = Self.secret()
        let server = try EchoServer()
        let work = TemporaryFolder()
        let saves = work.url.appendingPathComponent("saves").path
        let exports = work.url.appendingPathComponent("exports").path
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        let environment = ["OPENAI_API_KEY": key, "PARLEY_MODEL": server.baseURL]
        let content = packageRoot.appendingPathComponent("Content").path
        var runs: [ParleyProcess.Run] = []
        for (echo, input) in [
            (Echo.inTheReply, "talk to mira\nreport you repeated my key\nsave slot1\nquit\n"),
            (.unauthorized, "talk to mira\nquit\n"), (.failing, "talk to mira\nquit\n"),
            (.midStream, "talk to mira\nquit\n"),
        ] {
            server.set(echo)
            runs.append(
                try await ParleyProcess.run(
                    ["--content", content, "--saves", saves, "--continue"], in: work.url, input: input,
                    environment: environment))
            #expect(runs.last?.status == 0, "\(runs.last?.err ?? "")")
        }
        for arguments in [
            ["recordings", "export", "autosave", "--folder", saves, "--out", exports + "/recordings.json"],
            ["saves", "export", "autosave", "--folder", saves, "--out", exports + "/autosave.json"],
            ["feedback", "export", "--all", "--folder", saves, "--out", exports],
            ["transcript", "slot1", "mira", "--folder", saves, "--json", "--annotated"],
        ] {
            runs.append(try await ParleyProcess.run(arguments, in: work.url, environment: environment))
            #expect(runs.last?.status == 0, "parley \(arguments.joined(separator: " ")): \(runs.last?.err ?? "")")
        }
        let recordings = try String(contentsOfFile: exports + "/recordings.json", encoding: .utf8)
        #expect(recordings.contains("<redacted>"), "the failures were recorded, without the key")
        #expect(Self.files(containing: key, in: [work]) == [])
        for run in runs {
            #expect(!run.out.contains(key) && !run.err.contains(key))
        }
    }
}
