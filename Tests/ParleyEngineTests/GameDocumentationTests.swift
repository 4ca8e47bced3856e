import Foundation
import GameWorld
import ParleyEngine
import ScriptedModel
import Synchronization
import Testing

/// The example in `Game`'s documentation compiles and does what it says: `documentedExample` holds it as written
/// (the test checks the doc comment against it, line by line), and running it on the shipped pack greets the player
/// with Mira and answers the lantern's price. A change to the API breaks the build here; a change to the doc comment
/// that is not made here too fails the comparison.
@Suite struct GameDocumentationTests {
    /// Game's example, between the markers exactly as the doc comment has it (without `/// `).
    static func documentedExample(pack: ContentPack, render: @escaping @Sendable (GameOutput) -> Void) async -> Game {
        // BEGIN Game's example
        let game = Game(state: pack.initialState) { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }
        await game.perform("talk to mira") { output in render(output) }
        await game.perform("how much is the lantern?") { output in render(output) }
        // END Game's example
        return game
    }

    /// The lines of the first ` ```swift ` block in `text`, each with `prefix` and the indentation before it removed.
    static func swiftBlock(in lines: [Substring], prefix: String) -> [String] {
        let stripped = lines.map { line -> String in
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix(prefix) ? String(trimmed.dropFirst(prefix.count)) : String(trimmed)
        }
        guard let open = stripped.firstIndex(of: "```swift"),
            let close = stripped[(open + 1)...].firstIndex(of: "```")
        else { return [] }
        return Array(stripped[(open + 1)..<close])
    }

    @Test func theDocCommentShowsTheCompiledExample() throws {
        let tests = URL(fileURLWithPath: #filePath)
        let root = tests.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(
            contentsOf: root.appendingPathComponent("Sources/ParleyEngine/Game.swift"), encoding: .utf8)
        let declaration = try #require(source.range(of: "public actor Game {"))
        let documented = Self.swiftBlock(
            in: source[..<declaration.lowerBound].split(separator: "\n", omittingEmptySubsequences: false),
            prefix: "/// ")
        let test = try String(contentsOf: tests, encoding: .utf8)
        let begin = try #require(test.range(of: "// BEGIN Game's example\n"))
        let end = try #require(test.range(of: "// END Game's example", range: begin.upperBound..<test.endIndex))
        let compiled = test[begin.upperBound..<end.lowerBound].split(separator: "\n").map {
            String($0.drop { $0 == " " })
        }.filter { !$0.isEmpty }
        #expect(!documented.isEmpty, "Game's doc comment has no swift example")
        #expect(documented == compiled)
    }

    @Test func theExampleGreetsAndAnswersThePrice() async throws {
        let shown = Mutex<[GameOutput]>([])
        _ = await Self.documentedExample(pack: try shippedPack()) { output in shown.withLock { $0.append(output) } }
        let outputs = shown.withLock { $0 }
        let spoken = outputs.compactMap { if case .speech(let text) = $0 { text } else { nil } }.joined(separator: " ")
        #expect(outputs.contains(.speechBegan(npc: "Mira Quickcoin")), "\(outputs)")
        #expect(!outputs.contains { if case .problem = $0 { true } else { false } }, "\(outputs)")
        #expect(spoken.contains("gold"), "no price in: \(spoken)")
    }
}
