import Foundation
import Testing

/// Runs the built `parley` binary end to end: arguments in; standard output, standard error and exit code out.
@Suite struct ParleyCLITests {
    static let packageRoot = ParleyBinary.packageRoot

    /// Runs `parley` with these arguments in the package's root directory.
    func parley(_ arguments: String..., environment: [String: String] = [:]) async throws -> ParleyRun {
        try await runParley(arguments, environment: environment)
    }

    @Test func checkingTheShippedPackPasses() async throws {
        let run = try await parley("content", "check", "Content")
        #expect(run.status == 0)
        #expect(run.out == "Content: 8 locations, 6 NPCs, 30 items; 0 errors, 0 warnings\n")
        #expect(run.err == "")
        #expect(try await parley("content", "check").out == run.out)
    }

    @Test func aBrokenPackPrintsTheGoldenOutputAndFails() async throws {
        let fixture = "Tests/ContentPacksTests/Fixtures/broken/unknown_item_typo"
        let run = try await parley("content", "check", fixture)
        #expect(run.status == 1)
        let golden = try String(
            contentsOf: Self.packageRoot.appendingPathComponent(fixture).appendingPathComponent("expected.txt"),
            encoding: .utf8)
        #expect(run.out == golden)
        #expect(run.out.contains(#"unknown item "silver_swrod" (did you mean "silver_sword"?)"#))
        #expect(run.err == "")
    }

    @Test func warningsAloneDoNotFail() async throws {
        let run = try await parley(
            "content", "check", "Tests/ContentPacksTests/Fixtures/broken/sells_category_without_items")
        #expect(run.status == 0)
        #expect(run.out.contains("warning: "))
    }

    @Test func jsonOutputIsOneDocument() async throws {
        let run = try await parley(
            "content", "check", "--json", "Tests/ContentPacksTests/Fixtures/broken/unknown_item_typo")
        #expect(run.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(document["ok"] as? Bool == false)
        let counts = try #require(document["counts"] as? [String: Int])
        #expect(counts["errors"] == 1)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["path"] as? String == "$.inventory[2].item")
        #expect(diagnostics.first?["hint"] as? String == #"did you mean "silver_sword"?"#)

        let shipped = try await parley("content", "check", "Content", "--json")
        #expect(shipped.status == 0)
        let ok = try #require(try JSONSerialization.jsonObject(with: Data(shipped.out.utf8)) as? [String: Any])
        #expect(ok["worldId"] as? String == "brackenford")
        #expect((ok["contentHash"] as? String)?.count == 16)
    }

    @Test func helpIsPrinted() async throws {
        let run = try await parley("content", "check", "--help")
        #expect(run.status == 0)
        #expect(run.out.contains("USAGE: parley content check [DIR] [--content DIR] [--json]"))
        #expect(try await parley("--help").out.contains("SUBCOMMANDS:"))
    }

    @Test func anUnknownOptionIsAUsageError() async throws {
        let run = try await parley("content", "check", "--jsn")
        #expect(run.status == 64)
        #expect(run.out == "")
        #expect(
            run.err == """
                error: unknown option '--jsn' (did you mean '--json'?)
                usage: parley content check [DIR] [--content DIR] [--json]
                See 'parley content check --help'.

                """)
    }

    @Test func aMissingDirectoryIsAnError() async throws {
        let run = try await parley("content", "check", "NoSuchPack")
        #expect(run.status == 1)
        #expect(run.out.hasPrefix("NoSuchPack: $: no such directory"))
    }

    @Test func outputHasNoEscapeCodes() async throws {
        let run = try await parley(
            "content", "check", "Tests/ContentPacksTests/Fixtures/broken/wrong_type", environment: ["NO_COLOR": "1"])
        #expect(!run.out.contains("\u{1B}"))
    }
}
