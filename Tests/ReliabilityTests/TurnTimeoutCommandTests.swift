import Foundation
import HTTPTestSupport
import Testing

/// `--turn-timeout` on the command line: refused when absurd, and, with a slow server, the player sees the retries
/// as they happen and a turn that runs out as a problem, after which the game goes on.
@Suite(.timeLimit(.minutes(10))) struct TurnTimeoutCommandTests {
    static let content = packageRoot.appendingPathComponent("Content").path

    /// The three commands that run NPC turns, with their other arguments.
    static let turnCommands = [
        ["play", "--content", content], ["test", content], ["replay", "nothing.json", "--content", content],
    ]

    @Test(arguments: turnCommands, ["0", "-1", "abc", "86401", "nan"])
    func anAbsurdTurnTimeoutIsAUsageError(command: [String], value: String) async throws {
        let work = TemporaryFolder()
        let run = try await ParleyProcess.run(command + ["--turn-timeout", value], in: work.url, input: "quit\n")
        #expect(run.status == 64, "\(run.out) \(run.err)")
        #expect(run.err.contains("--turn-timeout must be a number of seconds"), "\(run.err)")
    }

    @Test func aServerThatNeverAnswersEndsTheTurnAtTheTurnTimeoutAndSaysSo() async throws {
        let server = try ChatServer(.fault(.hang))
        let work = TemporaryFolder()
        let run = try await ParleyProcess.run(
            [
                "play", "--turn-timeout", "1", "--content", Self.content, "--saves", work.url.path, "--voice", "free",
                "--first-words-deadline", "600",
            ], in: work.url,
            input: "talk to mira\nlook\nquit\n", environment: ["PARLEY_MODEL": server.server.baseURL + "/v1"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("did not answer: No answer came within the turn's time limit of 1 s"), "\(run.out)")
        #expect(run.out.contains("Your words were not lost"))
        // The game went on: the next command ran, and described the place again.
        #expect(run.out.components(separatedBy: "Market Square\n").count == 3, "\(run.out)")
    }

    @Test func theServersRetriesArePrintedAsTheyHappen() async throws {
        let count = LoopbackCounter()
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("not found", status: 404) }
            return count.next() == 1
                ? .json(#"{"error":{"message":"loading model"}}"#, status: 503)
                : .eventStream(ChatStreams.text("Welcome back."))
        }
        let work = TemporaryFolder()
        let run = try await ParleyProcess.run(
            [
                "play", "--content", Self.content, "--saves", work.url.path, "--voice", "free",
                "--first-words-deadline", "600",
            ], in: work.url, input: "talk to mira\nquit\n", environment: ["PARLEY_MODEL": server.baseURL + "/v1"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("(the server failed (HTTP 503); trying again 2/3)\n"), "\(run.out)")
        #expect(run.out.contains("Welcome back."), "\(run.out)")
    }
}
