import Foundation
import GameWorld
import LLMTestSupport
import LanguageModels
import NPCContract
import OpenAICompatible
import Testing

@testable import ParleyEngine

/// A long conversation against the real SmolLM2 on llama-server with a small `--ctx-size`: no turn fails, and every
/// trim keeps the facts its policy says it keeps, given the facts that exist. What the model says and does (offers of
/// its own, gifts) changes which facts exist, so the test checks the policy on whatever exists, never that a
/// particular fact survived (`ContextRecoveryTests` drive that with a mock). `PARLEY_LONG_TURNS` sets the number of
/// turns: 30 by default, which trims several times on a 1,024-token slot (Mira's instructions and five tools take
/// most of it); 500 turns take about ten minutes on two cores, so CI runs the short form (BENCHMARKS.md reports the
/// long one).
@Suite(
    .serialized, .enabled(if: LlamaServerProcess.testsEnabled, Comment(rawValue: LlamaServerProcess.howToEnable)),
    .timeLimit(.minutes(30)), .turnTimeout(.seconds(3_600)))
struct LlamaLongConversationTests {
    @Test func aLongConversationOnASmallContextNeverFails() async throws {
        let turns = Int(ProcessInfo.processInfo.environment["PARLEY_LONG_TURNS"] ?? "") ?? 30
        try await LlamaServerProcess.with(contextSize: 2048, parallel: 2) { server in
            var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: server.baseURL, apiKey: nil)
            configuration.maximumRetries = 1
            let backend = try await OpenAICompatibleLanguageModel.connect(configuration)
            var state = try shippedPack().initialState
            var player = state.player
            player.name = "Ada"
            state = GameState(world: state.world, player: player)
            try state.apply(.receivedGold(amount: 30, from: "mira"))
            // Greedy, so the small model says the same from run to run.
            let game = Game(
                state: state, models: { _, _ in backend },
                options: .init(sampling: .greedy, maximumResponseTokens: 8))
            let screen = Screen()
            await game.perform("talk to mira", output: screen.record)
            // An early agreement, made with the game's rules (a model this small may not make it itself).
            await game.perform("decline", output: screen.record)  // whatever the model may have offered itself
            _ = await game.propose(OfferTrade.Arguments(action: .sell, item: "lantern", price: 20), from: "mira")
            await game.perform("accept", output: screen.record)
            try #require(await game.state.player.inventory.contains("lantern"), "\(screen.text)")
            let clock = ContinuousClock()
            let start = clock.now
            for turn in 1...turns {
                await game.perform("Nice day at the market, isn't it? (\(turn))", output: screen.record)
            }
            // No turn fails for the conversation's length. A turn whose output the model garbled (a tool call's
            // JSON cut off: what this small model does depends on the prompt, the tools' schemas and the build) is
            // the model's doing; the engine reports it, keeps the player's words out of the transcript and goes on.
            let problems = screen.all.compactMap { if case .problem(let text) = $0 { text } else { nil } }
            let garbled = problems.filter { $0.contains("output could not be read") }
            #expect(problems.count == garbled.count, "\(problems.filter { !garbled.contains($0) }.prefix(3))")
            #expect(garbled.count < turns / 2, "most turns were answered: \(garbled.prefix(3))")
            let conversation = try #require(await game.conversations["mira"])
            #expect(conversation.trims > 0)
            // No half turn: every prompt of the history is answered.
            let turns = ContextRecovery.turns(of: conversation.history.dropFirst())
            #expect(turns.allSatisfy { turn in turn.contains { if case .response = $0 { true } else { false } } })
            let instructions = try #require(conversation.session.transcript.instructions).segments.map(\.description)
                .joined()
            let choice = try #require(conversation.lastFactChoice)
            #expect(choice.offered.first == "The player's name is Ada.")
            #expect(FactPolicy.violations(of: choice, instructions: instructions) == [])
            print("llama-server long conversation: \(turns) turns, \(conversation.trims) trims, \(clock.now - start)")
        }
    }
}

/// The rules a trim's choice of facts follows (see `ContextRecovery.fit`), checked on any choice.
enum FactPolicy {
    /// What a choice of facts does against the policy; empty when it follows it.
    ///
    /// The player's name is always kept, and so is a pending offer; the other facts are kept oldest first, as many
    /// as fit the budget, and no more fit; every kept fact is in the instructions the model sees.
    static func violations(of choice: ContextRecovery.FactChoice, instructions: String) -> [String] {
        var found: [String] = []
        let offered = choice.offered
        let kept = choice.kept
        guard let name = offered.first else { return kept.isEmpty ? [] : ["facts kept of none offered"] }
        if kept.first != name { found.append("the first fact (the player's name) was not kept first") }
        // Kept facts come from the offered ones, in their order.
        var rest = offered[...]
        for fact in kept {
            guard let index = rest.firstIndex(of: fact) else {
                found.append("kept \"\(fact)\", which was not offered or is out of order")
                continue
            }
            rest = rest[(index + 1)...]
        }
        let isPending = { (fact: String) in fact.hasPrefix(Game.pendingFactPrefix) }
        for fact in offered where isPending(fact) && !kept.contains(fact) {
            found.append("the pending offer \"\(fact)\" was dropped")
        }
        // The other facts: the oldest first, as many as fit.
        let others = offered.dropFirst().filter { !isPending($0) }
        let keptOthers = kept.dropFirst().filter { !isPending($0) }
        if Array(others.prefix(keptOthers.count)) != keptOthers {
            found.append("the facts kept are not the oldest: \(keptOthers)")
        }
        let fixed = name.count + offered.dropFirst().filter(isPending).reduce(0) { $0 + $1.count + 3 }
        let used = fixed + keptOthers.reduce(0) { $0 + $1.count + 3 }
        if !keptOthers.isEmpty, used > choice.budgetCharacters {
            found.append("the facts kept take \(used) characters, over the budget of \(choice.budgetCharacters)")
        }
        if keptOthers.count < others.count, used + others[keptOthers.count].count + 3 <= choice.budgetCharacters {
            found.append("\"\(others[keptOthers.count])\" was dropped though it fit")
        }
        for fact in kept where !instructions.contains(fact) {
            found.append("\"\(fact)\" is not in the instructions")
        }
        return found
    }
}

/// The checker above fails on choices that break the policy, so the long conversation's check can fail.
@Suite struct FactPolicyTests {
    static let name = "The player's name is Ada."
    static let sale = "Mira Quickcoin sold 1 × Brass Lantern to Ada for 20 gold."
    static let gift = "Ada gave Mira Quickcoin 1 × Red Apple."
    static let pending = "\(Game.pendingFactPrefix) Mira Quickcoin offers 1 × Tallow Candle for 2 gold."

    func choice(_ kept: [String], budget: Int = 200) -> ContextRecovery.FactChoice {
        .init(offered: [Self.name, Self.sale, Self.gift, Self.pending], budgetCharacters: budget, kept: kept)
    }

    func notes(_ facts: [String]) -> String { facts.joined(separator: "\n") }

    @Test func theEnginesOwnChoiceFollowsThePolicy() {
        for budget in [0, 30, 90, 150, 200, 1_000] {
            let offered = [Self.name, Self.sale, Self.gift, Self.pending]
            let kept = ContextRecovery.fit(offered, budgetCharacters: budget)
            let made = ContextRecovery.FactChoice(offered: offered, budgetCharacters: budget, kept: kept)
            #expect(FactPolicy.violations(of: made, instructions: notes(kept)) == [], "budget \(budget)")
        }
    }

    @Test func choicesThatBreakThePolicyAreFound() {
        let all = [Self.name, Self.sale, Self.gift, Self.pending]
        // The early sale dropped while it fit; the name dropped; the pending offer dropped; a later fact kept
        // before an older one; a kept fact missing from the instructions.
        for wrong in [
            choice([Self.name, Self.pending]), choice([Self.sale, Self.pending]), choice([Self.name, Self.sale]),
            choice([Self.name, Self.gift, Self.pending]),
        ] {
            #expect(!FactPolicy.violations(of: wrong, instructions: notes(all)).isEmpty, "\(wrong.kept)")
        }
        #expect(!FactPolicy.violations(of: choice(all, budget: 1_000), instructions: notes([Self.name])).isEmpty)
    }
}
