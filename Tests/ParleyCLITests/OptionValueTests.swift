import Foundation
import Testing

/// Typed options end to end: a bad value is a usage error (64) in every command that takes the option, and the
/// saves folder has one name, `--saves`, in every command, with `--folder` as its alias.
@Suite struct OptionValueTests {
    /// A temporary folder, removed afterwards.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-options-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Every command that takes `--seed`, with `SEED` where the value goes.
    static let seedCommands: [[String]] = [
        ["--seed", "SEED"],
        ["play", "--seed", "SEED"],
        ["test", "--seed", "SEED"],
        ["test", "Content", "--seed=SEED"],
        ["replay", "slot1", "--seed", "SEED"],
    ]

    @Test(arguments: seedCommands, ["abc", "-1"])
    func aSeedThatIsNotAWholeNumberIsAUsageErrorInEveryCommand(_ command: [String], _ value: String) async throws {
        let run = try await runParley(
            command.map { $0.replacingOccurrences(of: "SEED", with: value) }, input: "look\n")
        #expect(run.status == 64, "\(command) \(run.out) \(run.err)")
        #expect(run.out == "")
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "error: --seed must be a whole number from 0 to 18446744073709551615, not '\(value)' "
                + "(for example --seed 7)", "\(run.err)")
        #expect(lines.dropFirst().first?.hasPrefix("usage: parley") == true, "\(run.err)")
    }

    @Test func theSavesFolderIsNamedBySavesOrFolderOrTheEnvironment() async throws {
        let folder = try Folder()
        let saves = folder.url.appendingPathComponent("saves").path
        let played = try await runParley(
            ["--saves", saves], input: "talk to mira\nhello\nsave first \"At the market\"\n")
        #expect(played.status == 0, "\(played.err)")

        let bySaves = try await runParley(["saves", "list", "--saves", saves])
        #expect(bySaves.status == 0, "\(bySaves.err)")
        #expect(bySaves.out.contains("first  At the market"), "\(bySaves.out)")
        for other in [
            try await runParley(["saves", "list", "--folder", saves]),
            try await runParley(["saves", "list", "--folder=\(saves)"]),
            try await runParley(["saves", "--saves", saves]),
            try await runParley(["saves", "list"], environment: ["PARLEY_SAVES": saves]),
            // The command line wins over the environment.
            try await runParley(
                ["saves", "list", "--saves", saves], environment: ["PARLEY_SAVES": folder.url.path]),
        ] {
            #expect(other.status == 0, "\(other.err)")
            #expect(other.out == bySaves.out)
            #expect(other.err == "")
        }
        // Every command that reads saves takes both names.
        for name in ["--saves", "--folder"] {
            let transcript = try await runParley(["transcript", "first", "mira", name, saves])
            #expect(transcript.status == 0, "\(transcript.err)")
            #expect(transcript.out.contains("hello"), "\(transcript.out)")
            let recordings = try await runParley(["recordings", "export", "first", name, saves])
            #expect(recordings.status == 0, "\(recordings.err)")
        }
    }

    @Test func aMistypedSavesOptionStillGetsDidYouMean() async throws {
        for (typed, suggested) in [("--save", "--saves"), ("--savse", "--saves"), ("--foldr", "--folder")] {
            let run = try await runParley(["saves", "list", typed, "x"])
            #expect(run.status == 64)
            #expect(
                run.err.hasPrefix("error: unknown option '\(typed)' (did you mean '\(suggested)'?)\n"), "\(run.err)")
        }
    }

    @Test(arguments: [["saves", "list"], ["play"], ["transcript"], ["feedback", "list"], ["replay"]])
    func helpNamesTheAliasTheDefaultAndTheVariable(_ command: [String]) async throws {
        let run = try await runParley(command + ["--help"])
        #expect(run.status == 0)
        #expect(
            run.out.contains(
                "  --saves DIR           The saves folder. (alias: --folder; default: $PARLEY_SAVES if set, else "
                    + "SaveGames)\n"), "\(run.out)")
    }

    @Test func helpShowsTypedDefaults() async throws {
        let run = try await runParley(["play", "--help"])
        #expect(run.out.contains("--seed N              The scripted model's seed. (default: 1)"), "\(run.out)")
        #expect(run.out.contains("(default: $PARLEY_MODEL if set, else scripted)"), "\(run.out)")
        #expect(run.out.contains("(default: 60)"), "\(run.out)")
    }
}
