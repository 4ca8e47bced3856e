import Foundation
import Testing

/// Typed positional arguments end to end: a bad value is a usage error (64) naming the argument, before any save
/// or content is read.
@Suite struct ArgumentValueTests {
    /// The command line, then the first line of the error.
    @Test(arguments: [
        (
            ["saves", "show", ""],
            "error: SLOT must be a slot name with a letter or digit, not '' (for example autosave)"
        ),
        (
            ["saves", "delete", "..."],
            "error: SLOT must be a slot name with a letter or digit, not '...' (for example autosave)"
        ),
        (["transcript", "autosave", ""], "error: NPC must be a non-empty NPC id, not '' (for example mira)"),
        (["replay", ""], "error: SOURCE must be non-empty text, not '' (for example autosave)"),
        (
            ["saves", "export", "autosave", "--out", ""],
            "error: --out must be non-empty text, not '' (for example --out save.json)"
        ),
    ])
    func aBadArgumentIsAUsageError(_ arguments: [String], _ firstLine: String) async throws {
        // The folder does not exist: had the command run, it would have failed with 1 on that instead.
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("parley-no-\(UUID().uuidString)")
        let run = try await runParley(arguments + ["--saves", missing.path])
        #expect(run.status == 64, "\(run.out) \(run.err)")
        #expect(run.out == "")
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.first == firstLine, "\(run.err)")
        #expect(lines.dropFirst().first?.hasPrefix("usage: parley \(arguments[0]) ") == true, "\(run.err)")
    }
}
