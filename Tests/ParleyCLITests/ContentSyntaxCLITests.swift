import Foundation
import Testing

/// What a modder's editor may leave in content files, through the built binary: a UTF-8 byte order mark at the start
/// of a JSON or JSON Lines file is passed over, and a comma forgotten at the end of a line is pointed at there.
@Suite struct ContentSyntaxCLITests {
    static let byteOrderMark = Data([0xEF, 0xBB, 0xBF])

    /// Rewrites a file of the pack with a byte order mark before its text.
    static func prependByteOrderMark(to path: String, in pack: EvalCommandTests.TinyPack) throws {
        let url = pack.url.appendingPathComponent(path)
        try (byteOrderMark + Data(contentsOf: url)).write(to: url)
    }

    @Test func filesStartingWithAByteOrderMarkAreRead() async throws {
        let pack = try EvalCommandTests.TinyPack(corpus: [
            "tam.jsonl": """
            // Tam's cases, saved by an editor that writes a byte order mark
            {"id": "tam-price-1", "npc": "tam", "kind": "price", "say": "how much is a nail?", "expect": {"says": ["2"]}}
            """,
            "first.jsonl": """
            {"id": "tam-price-2", "npc": "tam", "kind": "price", "say": "what does a nail cost?", "expect": {"says": ["2"]}}
            """,
        ])
        for file in ["world.json", "npcs/tam.json", "eval/tam.jsonl", "eval/first.jsonl"] {
            try Self.prependByteOrderMark(to: file, in: pack)
        }
        let check = try await runParley(["content", "check", pack.url.path])
        #expect(check.status == 0, "\(check.out)\(check.err)")
        #expect(check.out.hasSuffix("1 location, 1 NPC, 2 items; 0 errors, 0 warnings\n"), "\(check.out)")
        let eval = try await runParley(["eval", pack.url.path])
        #expect(eval.status == 0, "\(eval.out)\(eval.err)")
        #expect(eval.out.hasSuffix("Accuracy: 2/2 cases passed, 100.0%\n"), "\(eval.out)")
    }

    @Test func aMissingCommaIsPointedAtTheLineItIsMissingFrom() async throws {
        let pack = try EvalCommandTests.TinyPack(corpus: nil)
        let items = """
            {"items": [
              {"id": "kettle", "name": "Copper Kettle", "description": "A kettle.", "value": 10, "category": "tool"},
              {"id": "nail", "name": "Iron Nail",
               "description": "A nail."
               "value": 1, "category": "tool"}]}
            """
        try Data(items.utf8).write(to: pack.url.appendingPathComponent("items.json"))
        let check = try await runParley(["content", "check", pack.url.path])
        #expect(check.status == 1)
        #expect(
            check.out.contains(
                "\(pack.url.path)/items.json: $: invalid JSON at line 4, column 28: expected ',' or '}' after an object "
                    + "member: a comma is missing here, at the end of the line (the next member begins on line 5 with "
                    + "'\"') (the rest of this file was not checked)"), "\(check.out)")
    }
}
