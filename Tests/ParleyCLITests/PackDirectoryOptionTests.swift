import Foundation
import Testing

/// `content check`, `content lexicon`, `test` and `eval` take the pack's directory as `DIR` or as `--content DIR`, as
/// `play` and `serve` do; both at once, naming different directories, is a usage error.
@Suite struct PackDirectoryOptionTests {
    static let commands: [[String]] = [
        ["content", "check"], ["content", "lexicon"], ["test"], ["eval", "--npc", "greta"],
    ]

    @Test(arguments: commands)
    func thePackMayBeNamedEitherWay(command: [String]) async throws {
        let positional = try await runParley(command + ["Examples/Marktplatz"])
        let option = try await runParley(command + ["--content", "Examples/Marktplatz"])
        #expect(positional.status == option.status, "\(positional.err)\(option.err)")
        #expect(positional.out == option.out)
        // It is the Marktplatz pack that was read, not the default Content.
        let defaulted = try await runParley(command)
        #expect(option.out != defaulted.out || option.status != defaulted.status, "\(option.out)")
        // The same directory twice is no contradiction.
        let both = try await runParley(command + ["Examples/Marktplatz", "--content", "Examples/Marktplatz"])
        #expect(both.status == option.status && both.out == option.out, "\(both.err)")
    }

    @Test(arguments: commands)
    func twoDifferentPacksAreAUsageError(command: [String]) async throws {
        let run = try await runParley(command + ["Content", "--content", "Examples/Marktplatz"])
        #expect(run.status == 64, "\(run.out)\(run.err)")
        #expect(
            run.err.contains(
                "the pack's directory is given twice, as Content and as --content Examples/Marktplatz (give it once, "
                    + "as DIR or as --content DIR)"), "\(run.err)")
        #expect(run.out.isEmpty)
    }
}
