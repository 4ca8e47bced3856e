import Foundation
import Testing

/// Values that would make every turn fail are refused when the game starts, with the limit that applies: a
/// `--max-tokens` that leaves the conversation no room in the model's context window, a `--name` longer than a
/// player's name may be. Nothing is played or written.
@Suite struct StartLimitTests {
    @Test(arguments: ["1000000", "16385"])
    func aReplyLimitBeyondHalfTheContextWindowIsRefusedAtStart(_ tokens: String) async throws {
        let folder = try OptionValueTests.Folder()
        let run = try await runParley(
            ["play", "--max-tokens", tokens, "--saves", folder.url.path], input: "talk to mira\nhello\n")
        #expect(run.status == 64, "\(run.out) \(run.err)")
        #expect(run.out == "")
        #expect(
            run.err.contains(
                "--max-tokens \(tokens) leaves the conversation no room in the model's context window of 32768 "
                    + "tokens: give at most 16384"), "\(run.err)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path))?.isEmpty ?? true)
    }

    @Test func aReplyLimitWithinHalfTheContextWindowPlays() async throws {
        let folder = try OptionValueTests.Folder()
        let run = try await runParley(
            ["play", "--max-tokens", "16384", "--saves", folder.url.path], input: "talk to mira\nhello\n")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("Mira"), "\(run.out)")
    }

    @Test(arguments: [String(repeating: "n", count: 100_000), String(repeating: "é", count: 65), "Tab\there"])
    func aNameBeyondTheGamesLimitIsRefusedAtStart(_ name: String) async throws {
        let folder = try OptionValueTests.Folder()
        let run = try await runParley(
            ["play", "--name", name, "--saves", folder.url.path], input: "talk to mira\nhello\n")
        #expect(run.status == 64, "\(run.out.prefix(300)) \(run.err.prefix(300))")
        #expect(run.out == "")
        #expect(
            run.err.hasPrefix("error: --name must be a name of 1 to 64 characters without control characters"),
            "\(run.err.prefix(300))")
    }

    @Test func aNameOfSixtyFourCharactersPlays() async throws {
        let folder = try OptionValueTests.Folder()
        let name = String(repeating: "Ö", count: 64)
        let run = try await runParley(
            ["play", "--name", name, "--saves", folder.url.path], input: "talk to mira\nhello\n")
        #expect(run.status == 0, "\(run.err)")
    }
}
