import Foundation
import HTTPTestSupport
import LanguageModels
import OpenAICompatible
import ParleyEngine
import ParleyEvaluation
import ParleyHost
import SaveGames
import Synchronization
import Testing

/// A turn has a time limit for all of it (every model call, every retry and wait), and the player sees the waiting:
/// the server's retries and rate limits as notices, a turn that runs out as a problem that loses nothing. Nothing
/// from a turn that ran out reaches a later one.
@Suite(.timeLimit(.minutes(10))) struct TurnDeadlineTests {
    /// A game host on the server's backend, with saves in `folder`.
    func host(_ model: OpenAICompatibleLanguageModel, folder: TemporaryFolder) throws -> GameHost {
        GameHost(pack: try shippedPack(), models: { _, _ in model }, store: SaveGameStore(folder: folder.url))
    }

    /// The game's recorded turns, as saved in the autosave.
    func savedRecordings(_ folder: TemporaryFolder) throws -> [String] {
        try SaveGameStore(folder: folder.url).open(slot: "autosave", access: .readOnly).recordings().map(\.json)
    }

    @Test func aServerThatNeverAnswersFailsTheTurnAtItsDeadlineAndItsLateAnswerLeaksNowhere() async throws {
        let server = try ChatServer()
        let folder = TemporaryFolder()
        // Its own limits are far longer than the turn's: only the turn's deadline can end this wait.
        let host = try host(try server.model(retries: 2, idle: .seconds(120)), folder: folder)
        let screen = Screen()
        await host.perform("talk to mira", output: screen.record)
        let session = try #require(await host.game.session(of: "mira"))
        let before = session.transcript.map { $0.jsonString() }

        let gate = try LoopbackGate()
        server.set(.fault(.gated(gate, timeout: .seconds(50), then: .eventStream(ChatStreams.text("LATE ANSWER")))))
        screen.clear()
        await Game.$turnTimeout.withValue(.seconds(1)) {
            await host.perform("are you there?", output: screen.record)
        }
        #expect(screen.problems.count == 1, "\(screen.text)")
        let problem = try #require(screen.problems.first)
        #expect(problem.contains("did not answer"), "\(problem)")
        #expect(problem.contains("time limit of 1 s"), "\(problem)")
        #expect(problem.contains("Your words were not lost"), "\(problem)")
        #expect(session.transcript.map { $0.jsonString() } == before, "the turn was not rolled back")
        #expect(!session.isResponding)
        let failure = try #require(await host.game.recordings.last?.failure)
        #expect(failure.contains("time limit"))

        // The late answer arrives after the turn ended; the next turn hears only its own.
        gate.open()
        server.set(.echo)
        screen.clear()
        await host.perform("hello again", output: screen.record)
        #expect(screen.problems.isEmpty, "\(screen.text)")
        #expect(screen.speech == "You said: hello again.", "\(screen.text)")
        #expect(session.transcript.count == before.count + 2)
        let everything =
            try session.transcript.map { $0.jsonString() }.joined() + screen.text + savedRecordings(folder).joined()
        #expect(!everything.contains("LATE ANSWER"))
    }

    @Test func theDeadlineCoversEveryAttemptOfATurn() async throws {
        // The server fails every time, and the backend would ask twenty times with doubling waits (hours in all).
        let server = try ChatServer(.fault(.json(#"{"error":{"message":"busy"}}"#, status: 503)))
        let host = try host(try server.model(retries: 20), folder: TemporaryFolder())
        let screen = Screen()
        await Game.$turnTimeout.withValue(.seconds(2)) {
            await host.perform("talk to mira", output: screen.record)
        }
        // Which of two ends comes first depends on the machine's speed, and both are right: the turn's timer fires
        // during a wait, or the backend sees that its next wait would end after the deadline and gives up at once.
        // Either way the turn ends in one problem that loses nothing, long before twenty retries.
        #expect(screen.problems.count == 1, "\(screen.text)")
        let problem = screen.problems.first ?? ""
        #expect(problem.contains("time limit of 2 s") || problem.contains("also after retrying"), "\(screen.text)")
        #expect(problem.contains("Your words were not lost"), "\(screen.text)")
        #expect(server.chatRequests.count < 21)
    }

    @Test func retriesAreShownToThePlayerBeforeTheAnswer() async throws {
        let count = LoopbackCounter()
        let server = try LoopbackHTTPServer { request in
            guard request.path.hasSuffix("/chat/completions") else { return .text("not found", status: 404) }
            return count.next() == 1
                ? .json(#"{"error":{"message":"loading model"}}"#, status: 503)
                : .eventStream(ChatStreams.text("Welcome back."))
        }
        var configuration = OpenAICompatibleLanguageModel.Configuration(
            baseURL: server.baseURL + "/v1", apiKey: nil, contextSize: 8_192, toolCalling: .native)
        configuration.maximumRetries = 2
        configuration.retryDelay = .milliseconds(10)
        let model = try OpenAICompatibleLanguageModel(configuration: configuration)
        let game = Game(state: try shippedPack().initialState, models: { _, _ in model })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        #expect(screen.problems.isEmpty, "\(screen.text)")
        #expect(screen.speech == "Welcome back.")
        let notice = try #require(screen.all.firstIndex(of: .notice("the server failed (HTTP 503); trying again 2/3")))
        let began = try #require(screen.all.firstIndex { if case .speechBegan = $0 { true } else { false } })
        #expect(notice < began)
    }

    @Test func aRateLimitLongerThanTheTurnFailsAtOnceSayingHowLongTheServerAsked() async throws {
        let server = try ChatServer(
            .fault(
                .respond(
                    status: 429, headers: [("Retry-After", "600")],
                    body: Data(#"{"error":{"message":"too many requests"}}"#.utf8))))
        let host = try host(try server.model(retries: 2), folder: TemporaryFolder())
        let screen = Screen()
        await host.perform("talk to mira", output: screen.record)
        let problem = try #require(screen.problems.first, "\(screen.text)")
        #expect(problem.contains("rate limiting"), "\(problem)")
        #expect(problem.contains("Retry-After: 600 s"), "\(problem)")
        #expect(problem.contains("It asks to wait 600 s, more than the time left for this turn"), "\(problem)")
        #expect(problem.contains("Your words were not lost"), "\(problem)")
        #expect(server.chatRequests.count == 1)
    }

    @Test func aReplayedTurnHasTheTimeLimitToo() async throws {
        let server = try ChatServer()
        let model = try server.model(retries: 2, idle: .seconds(120))
        let pack = try shippedPack()
        let game = Game(state: pack.initialState, models: { _, _ in model })
        await game.perform("talk to mira", output: { _ in })
        let recordings = await game.recordings
        #expect(recordings.count == 1)

        server.set(.fault(.hang))
        let report = await Game.$turnTimeout.withValue(.seconds(1)) {
            await Replay.run(recordings, pack: pack, models: { _, _ in model })
        }
        #expect(report.failed == 1)
        #expect(report.turns.first?.replayedText.contains("time limit of 1 s") == true, "\(report.turns)")
    }
}
