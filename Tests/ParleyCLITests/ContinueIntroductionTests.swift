import Foundation
import Testing

/// `parley play` introduces a new game (the world's title, introduction and goal) and not a game it continues (which
/// gets only the line about help); a `--continue` that finds nothing to continue, or a save it cannot load, begins a
/// new game and introduces it.
@Suite struct ContinueIntroductionTests {
    /// The shipped world's title, introduction and goal.
    static func banner() throws -> [String] {
        let url = ParleyBinary.packageRoot.appendingPathComponent("Content/world.json")
        let world = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let goal = try #require((world["goal"] as? [String: Any])?["description"] as? String)
        return [
            try #require(world["title"] as? String), try #require(world["introduction"] as? String),
            "Your goal: " + goal,
        ]
    }

    @Test func aContinuedGameIsNotIntroducedAgain() async throws {
        let folder = PlayTests.Folder()
        let banner = try Self.banner()
        let first = try await runParley(["--saves", folder.url.path], input: "talk to mira\nbye\n")
        #expect(first.status == 0, "\(first.err)")
        for line in banner { #expect(first.out.contains(line), "\(first.out)") }
        #expect(first.out.hasPrefix(banner[0]))

        let continued = try await runParley(["--saves", folder.url.path, "--continue"], input: "inventory\n")
        #expect(continued.status == 0, "\(continued.err)")
        // Only the line about help comes before the game goes on.
        #expect(continued.out.hasPrefix("Type help for the commands.\n\nLoaded autosave"), "\(continued.out)")
        for line in banner { #expect(!continued.out.contains(line), "\(continued.out)") }
        #expect(continued.out.contains("You carry:"))
    }

    @Test func aContinueWithNothingToContinueIntroducesTheNewGame() async throws {
        let folder = PlayTests.Folder()
        let banner = try Self.banner()
        let run = try await runParley(["--saves", folder.url.path, "--continue"], input: "inventory\n")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix(banner[0]), "\(run.out)")
        for line in banner { #expect(run.out.contains(line)) }
        let introduced = try #require(run.out.range(of: banner[2]))
        let note = try #require(run.out.range(of: "There is no saved game to continue yet"))
        #expect(introduced.lowerBound < note.lowerBound, "the introduction comes first: \(run.out)")
    }

    @Test func aSaveThatCannotBeLoadedBeginsAnIntroducedNewGame() async throws {
        let folder = PlayTests.Folder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try Data("not a save".utf8).write(to: folder.url.appendingPathComponent("autosave.parley"))
        let run = try await runParley(["--saves", folder.url.path, "--continue"], input: "inventory\n")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix(try Self.banner()[0]), "\(run.out)")
        #expect(run.out.contains("You carry:"))
    }
}
