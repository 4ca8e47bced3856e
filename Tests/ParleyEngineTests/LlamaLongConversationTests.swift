import Foundation
import GameWorld
import LLMTestSupport
import LanguageModels
import OpenAICompatible
import Testing

@testable import ParleyEngine

/// A long conversation against the real SmolLM2 on llama-server with a small `--ctx-size`: no turn fails, and the
/// facts of the first turns survive the trims. `PARLEY_LONG_TURNS` sets the number of turns: 30 by default, which
/// trims several times on a 1,024-token slot (Mira's instructions and five tools take most of it); 500 turns take
/// about ten minutes on two cores, so CI runs the short form (BENCHMARKS.md reports the long one).
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
            _ = await game.propose(OfferProposal(action: "sell", item: "lantern", price: 20), from: "mira")
            await game.perform("accept", output: screen.record)
            try #require(await game.state.player.inventory.contains("lantern"), "\(screen.text)")
            let clock = ContinuousClock()
            let start = clock.now
            for turn in 1...turns {
                await game.perform("Nice day at the market, isn't it? (\(turn))", output: screen.record)
            }
            let problems = screen.all.compactMap { if case .problem(let text) = $0 { text } else { nil } }
            #expect(problems.isEmpty, "\(problems.prefix(3))")
            let conversation = try #require(await game.conversations["mira"])
            #expect(conversation.trims > 0)
            let instructions = try #require(conversation.session.transcript.instructions).segments.map(\.description)
                .joined()
            #expect(instructions.contains("The player's name is Ada."))
            #expect(instructions.contains("Mira Quickcoin sold 1 × Brass Lantern to Ada for 20 gold."))
            print("llama-server long conversation: \(turns) turns, \(conversation.trims) trims, \(clock.now - start)")
        }
    }
}
