import Foundation
import Testing

/// The commands that read saves, given a saves folder that is not there: an error that says so, never an empty
/// answer that hides a mistyped name.
@Suite struct SavesFolderTests {
    /// A temporary folder, removed afterwards; `missing` is a path inside it that does not exist.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-folder-\(UUID().uuidString)")
        var missing: String { url.appendingPathComponent("NoSuchSaves").path }

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Every command that reads a saves folder, with `DIR` for the folder.
    static let commands: [[String]] = [
        ["saves", "--saves", "DIR"],
        ["saves", "list", "--saves", "DIR"],
        ["saves", "show", "slot1", "--saves", "DIR"],
        ["saves", "export", "slot1", "--saves", "DIR"],
        ["saves", "delete", "slot1", "--saves", "DIR"],
        ["transcript", "slot1", "mira", "--saves", "DIR"],
        ["feedback", "--saves", "DIR"],
        ["feedback", "list", "--saves", "DIR"],
        ["feedback", "list", "--slot", "slot1", "--saves", "DIR"],
        ["feedback", "show", "abc", "--saves", "DIR"],
        ["feedback", "export", "--all", "--out", "OUT", "--saves", "DIR"],
        ["recordings", "export", "slot1", "--saves", "DIR"],
        ["replay", "slot1", "--saves", "DIR"],
    ]

    @Test(arguments: commands)
    func aMissingSavesFolderIsAnErrorThatSaysHowToNameAnother(_ command: [String]) async throws {
        let folder = try Folder()
        let out = folder.url.appendingPathComponent("out").path
        let run = try await runParley(command.map { $0 == "DIR" ? folder.missing : $0 == "OUT" ? out : $0 })
        #expect(run.status == 1, "\(run.out) \(run.err)")
        #expect(run.out == "")
        #expect(run.err.contains("the saves folder \(folder.missing) does not exist"), "\(run.err)")
        #expect(run.err.contains("--saves DIR"), "\(run.err)")
        // Nothing was created: neither the folder nor the export's.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
    }

    @Test func aMissingFolderNamedByTheEnvironmentIsAnErrorToo() async throws {
        let folder = try Folder()
        let run = try await runParley(["saves", "list"], environment: ["PARLEY_SAVES": folder.missing])
        #expect(run.status == 1)
        #expect(run.err.contains("the saves folder \(folder.missing) does not exist"), "\(run.err)")
    }

    @Test func aFileGivenAsTheSavesFolderIsAnError() async throws {
        let folder = try Folder()
        let file = folder.url.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: file)
        let run = try await runParley(["saves", "list", "--saves", file.path])
        #expect(run.status == 1)
        #expect(run.err.contains("\(file.path) is a file, not a saves folder"), "\(run.err)")
    }

    @Test func anEmptySavesFolderHasNoSavedGames() async throws {
        let folder = try Folder()
        for command in [["saves", "list"], ["saves"]] {
            let run = try await runParley(command + ["--folder", folder.url.path])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.hasPrefix("No saved games"), "\(run.out)")
            #expect(run.err == "")
        }
        let feedback = try await runParley(["feedback", "list", "--folder", folder.url.path])
        #expect(feedback.status == 0)
        #expect(feedback.out == "No feedback reports.\n")
    }
}
