import Foundation
import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// One scripted visit to each shipped NPC, recorded in `Goldens/<npc>.txt`: what the player says, the tools the
/// NPC calls with the game's answers, and what the NPC says. They are the NPCs' voices, reviewed in diffs like
/// code. Run with `PARLEY_RECORD_GOLDENS=1` to re-record them after a deliberate change.
@Suite struct ConversationGoldenTests {
    static let goldens = Packs.root.appendingPathComponent("Tests/ScriptedModelTests/Goldens")

    /// A step of a visit: a line, or something the player does.
    enum Step {
        case say(String)
        case arrive, leave, accept, decline
        case give(ItemID)
        case find(ItemID)
    }

    static let visits: [(NPCID, Int, [Step])] = [
        (
            "mira", 14,
            [
                .arrive, .say("Hello!"), .say("What do you sell?"), .say("How much is the lantern?"),
                .say("I'll take it"), .say("Would you take 14?"), .say("What about your scales?"),
                .say("Tell me about the old mill"), .say("Bye"),
            ]
        ),
        (
            "brannoc", 14,
            [
                .arrive, .say("What would you pay for my things?"), .say("Sell my rusty sword"), .accept,
                .say("How much is the sword?"), .say("the silver one"), .say("Too expensive"),
                .say("Is your forge hammer for sale?"), .leave,
            ]
        ),
        (
            "hesper", 14,
            [
                .arrive, .say("Any gossip?"), .say("What happened at the mill?"), .say("I'm starving"),
                .say("Two pies, please"), .say("How much is a mug of ale?"), .say("One ale"), .decline, .leave,
            ]
        ),
        (
            "oona", 14,
            [
                .arrive, .say("Can I buy your dagger?"), .say("Here, take this bread"), .say("What are the rules?"),
                .say("How do I get into the mill cellar?"), .say("Open the gate"), .leave, .find("lantern"), .arrive,
            ]
        ),
        (
            "aurelio", 14,
            [
                .arrive, .say("What do you sell?"), .say("How much is the owl?"), .say("What happened to your locket?"),
                .say("Is there a reward?"), .leave, .find("moonpetal_locket"), .arrive, .give("moonpetal_locket"),
                .say("Thank you!"),
            ]
        ),
        (
            "pip", 14,
            [
                .arrive, .say("What've you got?"), .say("I'll have a trout"), .accept,
                .say("Will you sell me your rod?"),
                .say("Dare you to go in the cellar"), .leave, .find("old_coin"), .arrive, .say("Want to buy my coin?"),
            ]
        ),
    ]

    @Test(arguments: visits.map(\.0))
    func aVisitMatchesItsGolden(npc: NPCID) async throws {
        let (_, gold, steps) = try #require(Self.visits.first { $0.0 == npc })
        let visit = try Packs.visit(npc, gold: gold)
        let session = try visit.session(seed: 1, tools: npc == "oona" ? visit.guardTools : nil)
        let name = try #require(visit.game.world.npcs[npc]).name
        var lines: [String] = []
        for step in steps {
            let prompt: Prompt
            switch step {
            case .say(let line): prompt = Prompt(line)
            case .arrive: prompt = visit.arrived
            case .leave: prompt = visit.left
            case .accept: prompt = try visit.acceptPending()
            case .decline: prompt = try visit.declinePending()
            case .give(let item): prompt = try visit.give(item)
            case .find(let item):
                try visit.playerFinds(item)
                lines.append("(\(visit.game.player.name) finds a \(visit.game.world.name(of: item)).)")
                continue
            }
            let response = try await session.respond(to: prompt)
            lines.append(
                "> "
                    + prompt.segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }
                    .joined())
            for entry in response.transcriptEntries {
                switch entry {
                case .toolCalls(let calls): lines += calls.map { "    \($0.description)" }
                case .toolOutput(let output): lines.append("      -> " + output.segments.map(\.description).joined())
                default: break
                }
            }
            lines.append("\(name): \(response.content)")
        }
        let text = lines.joined(separator: "\n") + "\n"
        let golden = Self.goldens.appendingPathComponent("\(npc).txt")
        if ProcessInfo.processInfo.environment["PARLEY_RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: golden)
            Issue.record("recorded \(golden.lastPathComponent); unset PARLEY_RECORD_GOLDENS to compare")
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(text == expected, "\(npc): the conversation differs from Goldens/\(npc).txt")
    }
}
