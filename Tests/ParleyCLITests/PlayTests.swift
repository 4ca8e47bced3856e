import Foundation
import Testing

/// The game end to end: the built `parley` binary with piped input, the scripted model, real save files.
@Suite(.serialized) struct PlayTests {
    /// A walkthrough of the shipped world: sell the sword, haggle for the lantern, fetch the locket, bring it
    /// home to Aurelio.
    static let walkthrough = """
        look
        e
        talk to brannoc
        hello
        I want to sell my rusty sword
        accept
        bye
        w
        talk to mira
        what do you sell?
        how much is the lantern?
        would you take 15?
        accept
        bye
        i
        s
        s
        down
        take locket
        up
        n
        e
        talk to aurelio
        give locket
        bye
        i
        quit

        """

    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-play-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let goldens = ParleyBinary.packageRoot.appendingPathComponent("Tests/ParleyCLITests/Goldens")

    /// Compares text with a golden file, or writes the file when PARLEY_RECORD_GOLDENS=1.
    func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = Self.goldens.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["PARLEY_RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            Issue.record("recorded \(name); unset PARLEY_RECORD_GOLDENS to compare", sourceLocation: sourceLocation)
            return
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text == golden, "differs from Goldens/\(name); re-record with PARLEY_RECORD_GOLDENS=1",
            sourceLocation: sourceLocation)
    }

    @Test func aWholePlaythroughReachesTheGoal() async throws {
        let folder = Folder()
        let run = try await runParley(["play", "--saves", folder.url.path, "--name", "Ada"], input: Self.walkthrough)
        #expect(run.status == 0)
        #expect(run.err == "")
        // The trades happened exactly as the rules say: sword sold for 8 (14 + 8 = 22), lantern bought for 20.
        #expect(run.out.contains("You sell 1 Rusty Sword for 8 gold."))
        #expect(run.out.contains("You buy 1 Brass Lantern for 20 gold."))
        #expect(run.out.contains("You carry:\n  Aunt's Letter\n  Loaf of Bread × 2\n  Brass Lantern\nGold: 2"))
        #expect(
            run.out.contains("*** You did it: Bring the Moonpetal Locket to Aurelio Finch at Finch's Curiosities. ***"))
        try expectGolden(run.out, "playthrough.txt")
        // A normal playthrough makes no offer the rules refuse: no false positives, so no reports.
        let feedback = try await runParley(["feedback", "list", "--folder", folder.url.path])
        #expect(feedback.out == "No feedback reports.\n")
        // Each conversation matches its golden transcript, read back from the autosave.
        for npc in ["brannoc", "mira", "aurelio"] {
            let transcript = try await runParley(["transcript", "autosave", npc, "--folder", folder.url.path])
            #expect(transcript.status == 0)
            try expectGolden(transcript.out, "playthrough-\(npc).txt")
        }
    }

    @Test func pipedOutputHasNoPromptsOrEscapeCodes() async throws {
        let folder = Folder()
        let run = try await runParley(["--saves", folder.url.path], input: "talk to mira\nhello\n")
        #expect(run.status == 0)
        #expect(!run.out.contains("\u{1B}"))
        #expect(!run.out.contains("> "))
        #expect(run.out.contains("Mira Quickcoin: "))
    }

    @Test func badInputGetsHelpAndNothingCrashes() async throws {
        let folder = Folder()
        let lines = [
            "", "xyzzy", "go nowhere", "take the moon", "talk to nobody", "accept", "give", "report",
            "load nosuchslot", "\u{0}\u{7F}", String(repeating: "a", count: 5_000), "say", "history",
        ]
        let run = try await runParley(["--saves", folder.url.path], input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 0)
        #expect(run.out.contains("I don't understand \"xyzzy\"."))
        #expect(run.out.contains("You can't go nowhere from here."))
        #expect(run.out.contains("Could not load nosuchslot"))
    }

    @Test func aConversationContinuesInANewProcess() async throws {
        let folder = Folder()
        let first = try await runParley(
            ["--saves", folder.url.path], input: "talk to mira\nhow much is the lantern?\nsave before\nquit\n")
        #expect(first.out.contains("Saved to slot before."))
        // A new process loads the save; Mira remembers the greeting and the lantern. The first game's autosave is
        // kept: this new game saves itself to the next free slot.
        let second = try await runParley(["--saves", folder.url.path], input: "load before\ntalk to mira\nhello\n")
        #expect(second.status == 0)
        #expect(second.out.contains("Loaded before"))
        #expect(second.out.contains("this game saves itself to slot autosave-2"))
        #expect(second.out.contains("Mira Quickcoin: Back again, friend!"))  // she remembers the first visit
        let transcript = try await runParley(["transcript", "autosave-2", "mira", "--folder", folder.url.path])
        #expect(transcript.out.contains("You: how much is the lantern?"))
        #expect(transcript.out.contains("You: hello"))
        let firstGame = try await runParley(["transcript", "autosave", "mira", "--folder", folder.url.path])
        #expect(!firstGame.out.contains("You: hello"))
        // --continue picks the latest autosave up.
        let third = try await runParley(["--saves", folder.url.path, "--continue"], input: "history\n")
        #expect(third.out.contains("Loaded autosave-2"))
    }

    @Test func savesCanBeListedShownExportedAndDeleted() async throws {
        let folder = Folder()
        _ = try await runParley(
            ["--saves", folder.url.path], input: "talk to mira\nhello\nsave first \"At the market\"\n")
        let list = try await runParley(["saves", "--folder", folder.url.path])
        #expect(list.status == 0)
        #expect(list.out.contains("first  At the market"))
        #expect(list.out.contains("autosave  Autosave"))
        let show = try await runParley(["saves", "show", "first", "--folder", folder.url.path])
        #expect(show.out.contains("Conversations: mira ("))
        let export = try await runParley(["saves", "export", "first", "--folder", folder.url.path])
        #expect(export.out.contains("\"type\": \"FoundationModels.Transcript\""))
        let json = try await runParley(["transcript", "first", "mira", "--json", "--folder", folder.url.path])
        #expect(json.out.hasPrefix("{\n  \"version\": 1,\n  \"type\": \"FoundationModels.Transcript\""))
        let delete = try await runParley(["saves", "delete", "first", "--folder", folder.url.path])
        #expect(delete.status == 0)
        #expect(!(try await runParley(["saves", "--folder", folder.url.path]).out.contains("first")))
        let missing = try await runParley(["saves", "show", "first", "--folder", folder.url.path])
        #expect(missing.status == 1)
        #expect(missing.err.contains("first"))
    }

    @Test func reportsAreKeptAndExported() async throws {
        let folder = Folder()
        let out = folder.url.appendingPathComponent("exported")
        _ = try await runParley(
            ["--saves", folder.url.path], input: "talk to mira\nhello\nreport She should have offered me a discount\n")
        let list = try await runParley(["feedback", "list", "--folder", folder.url.path])
        #expect(list.out.contains("incorrect: Reported by the player"))
        let id = String(list.out.prefix(8))
        let show = try await runParley(["feedback", "show", id, "--folder", folder.url.path])
        #expect(show.out.contains("\"desiredOutput\""))
        #expect(show.out.contains("She should have offered me a discount"))
        let export = try await runParley([
            "feedback", "export", "--all", "--out", out.path, "--folder", folder.url.path,
        ])
        #expect(export.out == "Exported 1 report to \(out.path).\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).count == 1)
    }

    @Test func recordedTurnsReplayAndReportChanges() async throws {
        let folder = Folder()
        _ = try await runParley(["--saves", folder.url.path], input: Self.walkthrough)
        let same = try await runParley(["replay", "autosave", "--folder", folder.url.path])
        #expect(same.status == 0)
        #expect(same.out.hasSuffix("0 changed, 0 failed\n"))
        // Export, then replay the file against a pack whose blacksmith says one line differently.
        let file = folder.url.appendingPathComponent("recordings.json")
        let export = try await runParley([
            "recordings", "export", "autosave", "--out", file.path, "--folder", folder.url.path,
        ])
        #expect(export.status == 0)
        let changedPack = folder.url.appendingPathComponent("Content")
        try FileManager.default.copyItem(
            at: ParleyBinary.packageRoot.appendingPathComponent("Content"), to: changedPack)
        let brannoc = changedPack.appendingPathComponent("npcs/brannoc.json")
        let text = try String(contentsOf: brannoc, encoding: .utf8)
        let before = try #require(
            await run(["transcript", "autosave", "brannoc", "--folder", folder.url.path]).out
                .split(separator: "\n").first { $0.hasPrefix("Brannoc Ashdown: ") })
        let line = String(before.dropFirst("Brannoc Ashdown: ".count))
        #expect(text.contains(line))
        try Data(text.replacingOccurrences(of: line, with: "Hm. Another line entirely.").utf8).write(to: brannoc)
        let changed = try await runParley(["replay", file.path, "--content", changedPack.path])
        #expect(changed.status == 1)
        #expect(changed.out.contains("changed: (Ada comes up to you.)") || changed.out.contains("changed:"))
        #expect(changed.out.contains("replayed: Hm. Another line entirely."))
        #expect(changed.out.contains(" 1 changed, 0 failed"))
    }

    func run(_ arguments: [String]) async throws -> ParleyRun { try await runParley(arguments) }

    @Test func playHelpAndUsageErrors() async throws {
        let help = try await runParley(["play", "--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("--model SPEC"))
        let bad = try await runParley(["play", "--modle", "x"])
        #expect(bad.status == 64)
        #expect(bad.err.contains("did you mean '--model'"))
        let badModel = try await runParley(["play", "--model", "gpt"], input: "")
        #expect(badModel.status == 64)
        #expect(badModel.err.contains("is not a model"))
        let down = try await runParley(["play", "--model", "http://127.0.0.1:9/v1"], input: "")
        #expect(down.status == 1)
        #expect(down.err.contains("Could not reach the model server at http://127.0.0.1:9/v1"))
    }
}
