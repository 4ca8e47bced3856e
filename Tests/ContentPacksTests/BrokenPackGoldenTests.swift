import ContentPacks
import Foundation
import GameWorld
import GameWorldFixtures
import Testing

/// Each broken pack under `Fixtures/broken/<case>/` must produce exactly the checker output in its
/// `expected.txt`. Run with `PARLEY_RECORD_GOLDENS=1` to re-record them after a deliberate change, then
/// review the diff like code.
@Suite struct BrokenPackGoldenTests {
    static let fixturesPath = "Tests/ContentPacksTests/Fixtures/broken"
    static let fixtures = TestWorld.packageRoot.appendingPathComponent(fixturesPath)

    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    @Test func thereAreFixturesForEveryKindOfProblem() {
        #expect(
            Set(Self.cases).isSuperset(of: [
                "unknown_item_typo", "bad_exit_target", "npc_unknown_location", "duplicate_ids",
                "missing_required_field", "wrong_type", "out_of_range", "syntax_error", "duplicate_json_key",
                "unknown_field_warning", "sells_category_without_items",
            ]))
    }

    @Test(arguments: cases)
    func checkerOutputMatchesTheGolden(_ name: String) throws {
        let directory = Self.fixtures.appendingPathComponent(name)
        let result = ContentPack.load(from: directory, displayPath: "\(Self.fixturesPath)/\(name)")
        let output = ContentCheckReport(result).text
        let golden = directory.appendingPathComponent("expected.txt")
        if ProcessInfo.processInfo.environment["PARLEY_RECORD_GOLDENS"] == "1" {
            try Data(output.utf8).write(to: golden)
            Issue.record("recorded \(golden.lastPathComponent) for \(name); unset PARLEY_RECORD_GOLDENS to compare")
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(output == expected, "\(name): the checker's output differs from expected.txt")
    }
}
