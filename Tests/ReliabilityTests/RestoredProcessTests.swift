import Foundation
import Testing

/// An NPC restored in a new process is the same NPC: the same lines played by one `parley play`, and by one that
/// quits part way and a second that continues (`--continue`), leave the same conversations and end with the same
/// words. The reproduction of issue 31 is here too: buy a rope from Mira, quit, continue, and ask what you bought.
@Suite(.serialized) struct RestoredProcessTests {
    /// A conversation to play, and where to quit and continue it.
    struct Script: CustomTestStringConvertible, Sendable {
        var npc: String
        var lines: [String]
        /// The lines played before quitting, for each split to try.
        var splits: [Int]
        var testDescription: String { npc }
    }

    static let scripts = [
        Script(
            npc: "mira",
            lines: [
                "talk to mira", "my name is Wren", "I want to buy the rope", "accept", "how much is the lantern?",
                "would you take 15?", "remind me what I bought off you?", "what's my name?",
                "here, have a loaf of bread", "what did I give you?", "would you take 20 for the lantern?",
            ], splits: [4, 6, 9]),
        Script(
            npc: "pip",
            lines: [
                "go south", "talk to pip", "call me Dax", "how much for the smoked trout?", "I'll take two",
                "decline", "what would you pay for my bread?", "deal", "accept", "what did I sell you?",
                "what's me name?",
            ], splits: [3, 5, 8, 9]),
    ]

    @Test(arguments: scripts)
    func aGameContinuedInANewProcessPlaysOnAsTheOneThatNeverQuit(_ script: Script) async throws {
        let content = ["--content", packageRoot.appendingPathComponent("Content").path]
        let whole = TemporaryFolder()
        let once = try await ParleyProcess.run(
            ["play", "--saves", whole.url.path] + content, in: whole.url,
            input: script.lines.joined(separator: "\n") + "\n")
        try #require(once.status == 0, "\(once.err)")
        let expected = try await transcript(of: script.npc, in: whole)

        for split in script.splits {
            let folder = TemporaryFolder()
            let first = try await ParleyProcess.run(
                ["play", "--saves", folder.url.path] + content, in: folder.url,
                input: script.lines.prefix(split).joined(separator: "\n") + "\n")
            try #require(first.status == 0, "\(first.err)")
            let second = try await ParleyProcess.run(
                ["play", "--continue", "--saves", folder.url.path] + content, in: folder.url,
                input: script.lines.dropFirst(split).joined(separator: "\n") + "\n")
            try #require(second.status == 0, "\(second.err)")
            #expect(second.out.contains("Loaded autosave"), "\(second.out)")
            // The same conversation, turn by turn: every reply, tool call, offer and the game around each turn.
            let continued = try await transcript(of: script.npc, in: folder)
            #expect(
                continued == expected, "split after \(split) lines:\n\(continued)\n--- played at once ---\n\(expected)")
            // And the game ends the same: the last lines the player read.
            let lastLines = { (text: String) in text.split(separator: "\n").suffix(2).map(String.init) }
            #expect(lastLines(second.out) == lastLines(once.out), "split after \(split) lines")
        }
    }

    @Test func miraRemembersTheRopeSheSoldAndTheNameSheWasToldAfterAContinue() async throws {
        let folder = TemporaryFolder()
        let content = ["--content", packageRoot.appendingPathComponent("Content").path]
        let first = try await ParleyProcess.run(
            ["play", "--saves", folder.url.path] + content, in: folder.url,
            input: "talk to mira\nmy name is Wren\nI want to buy the rope\naccept\nquit\n")
        try #require(first.status == 0, "\(first.err)")
        let second = try await ParleyProcess.run(
            ["play", "--continue", "--saves", folder.url.path] + content, in: folder.url,
            input: "remind me what I bought off you?\nwhat's my name?\n")
        try #require(second.status == 0, "\(second.err)")
        #expect(second.out.contains("Coil of Rope"), "\(second.out)")
        #expect(!second.out.contains("I don't recall"), "\(second.out)")
        #expect(second.out.contains("Wren"), "\(second.out)")
    }

    /// What the player said they do for a living is read from the saved conversation, like the name (issue 31,
    /// blind15).
    @Test func miraRemembersThePlayersTradeAfterAContinue() async throws {
        let folder = TemporaryFolder()
        let content = ["--content", packageRoot.appendingPathComponent("Content").path]
        let first = try await ParleyProcess.run(
            ["play", "--saves", folder.url.path] + content, in: folder.url,
            input: "talk to mira\nI'm Tamsin, a cooper from Eastmarch\nquit\n")
        try #require(first.status == 0, "\(first.err)")
        let second = try await ParleyProcess.run(
            ["play", "--continue", "--saves", folder.url.path] + content, in: folder.url,
            input: "do you remember what my trade is?\nand where did I say I'm from?\n")
        try #require(second.status == 0, "\(second.err)")
        #expect(second.out.contains("a cooper"), "\(second.out)")
        #expect(second.out.contains("Eastmarch"), "\(second.out)")
    }

    @Test func aModdersOwnNPCRemembersAfterAContinueToo() async throws {
        // A pack of a modder's own: one place, one trader with no dialogue rules of her own (the built-in ones).
        let pack = TemporaryFolder()
        let files = [
            "world.json": #"""
            {"id": "millbrook", "title": "Millbrook", "introduction": "A quiet crossroads.",
             "start": {"name": "Stranger", "location": "crossroads", "gold": 40, "inventory": []},
             "locations": [{"id": "crossroads", "name": "Crossroads", "description": "Two roads meet."}],
             "goal": {"description": "Buy a kettle.", "requirements": [{"type": "playerHasItem", "item": "kettle"}]}}
            """#,
            "items.json": #"""
            {"items": [
              {"id": "kettle", "name": "Copper Kettle", "description": "A dented kettle.", "value": 9, "category": "tool"},
              {"id": "twine", "name": "Ball of Twine", "description": "Rough twine.", "value": 2, "category": "tool"}]}
            """#,
            "npcs/tilly.json": #"""
            {"id": "tilly", "name": "Tilly Marsh", "aliases": ["tilly"], "description": "A tinker.",
             "persona": "Tilly Marsh mends pots and sells what she mends.", "location": "crossroads", "gold": 20,
             "inventory": [{"item": "kettle"}, {"item": "twine", "quantity": 3}],
             "trade": {"sells": ["tool"], "buys": ["tool"], "sellMarkup": 1.0, "buyBackRate": 0.5,
                       "minimumPriceRatio": 0.8}}
            """#,
        ]
        for (name, text) in files {
            let url = pack.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let check = try await ParleyProcess.run(["content", "check", pack.url.path], in: pack.url)
        try #require(check.status == 0, "\(check.out)\(check.err)")
        let saves = TemporaryFolder()
        let content = ["--content", pack.url.path, "--saves", saves.url.path]
        let first = try await ParleyProcess.run(
            ["play"] + content, in: saves.url, input: "talk to tilly\nI want to buy the twine\naccept\nquit\n")
        try #require(first.status == 0, "\(first.err)")
        #expect(first.out.contains("You buy 1 Ball of Twine"), "\(first.out)")
        let second = try await ParleyProcess.run(
            ["play", "--continue"] + content, in: saves.url, input: "what did I buy from you?\n")
        try #require(second.status == 0, "\(second.err)")
        #expect(second.out.contains("Ball of Twine"), "\(second.out)")
    }

    /// `parley transcript autosave <npc>` in a save folder.
    func transcript(of npc: String, in folder: TemporaryFolder) async throws -> String {
        let run = try await ParleyProcess.run(
            ["transcript", "autosave", npc, "--saves", folder.url.path], in: folder.url)
        try #require(run.status == 0, "\(run.err)")
        return run.out
    }
}
