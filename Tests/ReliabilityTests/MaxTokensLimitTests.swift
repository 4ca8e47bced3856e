import Foundation
import LanguageModels
import LanguageModelsTesting
import ParleyEngine
import Testing

/// `--max-tokens` is bounded on the command line, and a huge limit through the library is a failed turn, not an
/// arithmetic overflow.
@Suite(.timeLimit(.minutes(10))) struct MaxTokensLimitTests {
    static let content = packageRoot.appendingPathComponent("Content").path

    @Test(arguments: ["9223372036854775807", "1000001", "0", "-5", "99999999999999999999999"])
    func anAbsurdMaxTokensIsAUsageErrorNotACrash(value: String) async throws {
        let work = TemporaryFolder()
        let run = try await ParleyProcess.run(
            ["play", "--max-tokens", value, "--content", Self.content, "--saves", work.url.path], in: work.url,
            input: "talk to mira\nhello\nquit\n")
        #expect(run.status == 64, "\(run.out) \(run.err)")
        #expect(run.err.contains("--max-tokens must be a whole number from 1 to 1000000"), "\(run.err)")
    }

    /// The largest the scripted model allows: half its context window of 32,768 (1,000,000 is refused at start, see
    /// `StartLimitTests`).
    @Test func theLargestMaxTokensAllowedPlays() async throws {
        let work = TemporaryFolder()
        let run = try await ParleyProcess.run(
            ["play", "--max-tokens", "16384", "--content", Self.content, "--saves", work.url.path], in: work.url,
            input: "talk to mira\nhello\nquit\n")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("Mira"))
    }

    @Test func intMaxTokensThroughAGameIsAFailedTurnNotACrash() async throws {
        let model = MockLanguageModel(replies: [.text("Hello."), .text("Hello again.")])
        let game = Game(
            state: try shippedPack().initialState, models: { _, _ in model },
            options: GenerationOptions(maximumResponseTokens: .max))
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform("hello", output: screen.record)
        #expect(screen.problems.count == 2, "\(screen.text)")
        #expect(screen.problems.allSatisfy { $0.contains("Your words were not lost") }, "\(screen.text)")

        let session = LanguageModelSession(model: model, instructions: "x")
        do {
            try await session.respond(to: "hi", options: GenerationOptions(maximumResponseTokens: .max))
            Issue.record("no error")
        } catch LanguageModelError.contextSizeExceeded(let info) {
            #expect(info.tokenCount == .max)
            #expect(info.contextSize == 4096)
        }
    }
}
