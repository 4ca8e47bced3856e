import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ScriptedModel
import Testing

@testable import ParleyEngine

/// Long conversations against models with small context windows never fail, and keep what matters.
@Suite struct ContextRecoveryTests {
    /// A mock NPC that haggles once (the lantern for 20) and then chats.
    static func chattyMerchant(contextSize: Int) -> MockLanguageModel {
        MockLanguageModel(contextSize: contextSize) { request in
            switch request.transcript.last {
            case .prompt(let prompt)? where prompt.description.contains("lantern"):
                return .toolCall("offerTrade", arguments: #"{"action":"sell","item":"lantern","price":20}"#)
            case .toolOutput?:
                return .text("Twenty gold it is. Say accept, friend.")
            default:
                return .text("Lovely weather for the market, friend. Turn \(request.transcript.count).")
            }
        }
    }

    func richState(named name: String) throws -> GameState {
        var state = try shippedPack().initialState
        try state.apply(.receivedGold(amount: 30, from: "mira"))
        var player = state.player
        player.name = name
        return GameState(world: state.world, player: player)
    }

    @Test(arguments: [ContextPolicy.summary, .firstAndLast])
    func fiveHundredTurnsNeverFailAndKeepWhatMatters(_ policy: ContextPolicy) async throws {
        var state = try richState(named: "Ada")
        var world = state.world
        world.npcs["mira"]?.contextPolicy = policy
        state = GameState(world: world, player: state.player)
        let model = Self.chattyMerchant(contextSize: 2_000)
        let game = Game(state: state, models: { _, _ in model })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform("I'll buy the lantern", output: screen.record)
        await game.perform("accept", output: screen.record)
        #expect(await game.state.player.inventory.contains("lantern"))
        for turn in 1...500 { await game.perform("Tell me about the weather, turn \(turn).", output: screen.record) }

        // No turn failed.
        #expect(!screen.all.contains { if case .problem = $0 { true } else { false } })
        let session = try #require(await game.session(of: "mira"))
        let conversation = try #require(await game.conversations["mira"])
        // Every request fit the window, and the transcript was trimmed in a few blocks, not every turn.
        for request in model.requests.suffix(100) { #expect(try await model.tokenCount(for: request) <= 2_000) }
        #expect(conversation.trims > 1 && conversation.trims < 100)
        // The whole conversation is kept for saves and history.
        #expect(conversation.history.count > 1_000)
        let instructions = try #require(session.transcript.instructions).segments.map(\.description).joined()
        #expect(instructions.hasPrefix("You are Mira Quickcoin"))
        if policy == .summary {
            // The facts from the first turns are still in the working context, 500 turns later.
            #expect(instructions.contains("The player's name is Ada."))
            #expect(instructions.contains("Mira Quickcoin sold 1 × Brass Lantern to Ada for 20 gold."))
            #expect(instructions.contains("Earlier in this conversation:"))
        } else {
            #expect(!instructions.contains("Earlier in this conversation:"))
        }
        // The most recent turn is there.
        #expect(session.transcript.description.contains("turn 500."))
    }

    @Test func theScriptedModelKeepsThePriceAgreedAndTheName() async throws {
        let state = try richState(named: "Ada")
        let game = Game(
            state: state,
            models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1, contextSize: 1_200) })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform("How much is the lantern?", output: screen.record)
        await game.perform("Would you take 20?", output: screen.record)
        await game.perform("accept", output: screen.record)
        for turn in 1...500 {
            let line = ["hello", "what do you sell?", "tell me about the old mill", "how is business?"][turn % 4]
            await game.perform(line, output: screen.record)
        }
        #expect(!screen.all.contains { if case .problem = $0 { true } else { false } })
        let session = try #require(await game.session(of: "mira"))
        let instructions = try #require(session.transcript.instructions).segments.map(\.description).joined()
        #expect(instructions.contains("The player's name is Ada."))
        #expect(instructions.contains("sold 1 × Brass Lantern to Ada for 20 gold"))
        #expect(await game.conversations["mira"]?.trims ?? 0 > 0)
    }

    @Test func aSavedLongConversationKeepsEverything() async throws {
        let model = Self.chattyMerchant(contextSize: 900)
        let game = Game(state: try richState(named: "Bo"), models: { _, _ in model })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        for turn in 1...120 { await game.perform("chat \(turn)", output: screen.record) }
        #expect(!screen.all.contains { if case .problem = $0 { true } else { false } })
        let saved = try #require(await game.annotatedTranscripts["mira"])
        let working = try #require(await game.session(of: "mira")?.transcript)
        #expect(saved.transcript.count > working.count)
        #expect(saved.transcript.map(\.description).contains("Prompt: chat 1"))
        #expect(!working.map(\.description).contains("Prompt: chat 1"))
    }

    /// A turn whose tool output is long can still overflow after the first, gentle trim (this happened on
    /// llama-server with a 1,024-token slot): the engine trims harder and the turn goes through.
    @Test func aTurnWithALongToolOutputTrimsHarderUntilItFits() async throws {
        // A window where the stock turn fits only when (almost) no earlier turn is kept: one gentle trim, which
        // keeps many short turns, is not enough for it.
        let size = 950
        // Short turns, and every tenth one looks up the stock first (a long tool output), then answers.
        let model = MockLanguageModel(contextSize: size) { request in
            switch request.transcript.last {
            case .toolOutput?: return .text("All of it is fine ware, friend.")
            case .prompt(let prompt)? where prompt.description.contains("stock"): return .toolCall("lookUpStock")
            default: return .text("Yes.")
            }
        }
        let game = Game(state: try richState(named: "Cy"), models: { _, _ in model })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        for turn in 1...40 {
            await game.perform(
                turn % 10 == 0 ? "Show me your stock. (\(turn))" : "Hm. (\(turn))", output: screen.record)
        }
        let problems = screen.all.compactMap { if case .problem(let text) = $0 { text } else { nil } }
        #expect(problems.isEmpty, "\(problems.prefix(2))")
        let conversation = try #require(await game.conversations["mira"])
        #expect(conversation.trims > 0)
        // Every request that reached the model fit its window.
        for request in model.requests { #expect(try await model.tokenCount(for: request) <= size) }
        #expect(conversation.session.transcript.description.contains("(40)"))
    }

    /// Facts are kept within their budget: the player's name, the pending offer, then the oldest dealings.
    @Test func factsBeyondTheBudgetDropTheNewestButNeverTheNameOrThePendingOffer() {
        let pending = "\(Game.pendingFactPrefix) Mira offers 1 Brass Lantern for 20 gold."
        let facts = ["The player's name is Ada."] + (1...50).map { "Fact number \($0) about a trade." } + [pending]
        let kept = ContextRecovery.fit(facts, budgetCharacters: 200)
        #expect(kept.first == "The player's name is Ada.")
        #expect(kept.contains("Fact number 1 about a trade."))
        #expect(!kept.contains("Fact number 50 about a trade."))
        #expect(kept.last == pending)
        #expect(kept.joined(separator: " - ").count <= 200)
    }

    /// A window so small that the NPC's tool definitions leave no room for a turn, even with nothing kept (the
    /// one turn in 500 that failed on a 1,024-token llama slot): the last attempt answers without tools.
    @Test func aTurnThatFitsOnlyWithoutToolsIsAnsweredWithoutThem() async throws {
        // Measure Mira's instructions with and without her tool definitions, by the mock's rule.
        let measuring = MockLanguageModel(replies: [.text("Hello!")])
        let probe = Game(state: try richState(named: "Di"), models: { _, _ in measuring })
        await probe.perform("talk to mira") { _ in }
        let session = try #require(await probe.session(of: "mira"))
        let withTools = try await measuring.tokenCount(for: [try #require(session.transcript.first)])
        let bare = try await measuring.tokenCount(for: [
            try #require(Game.sessionWithoutTools(like: session).transcript.first)
        ])
        #expect(bare + 100 < withTools)
        // A window with room for a short turn beside the bare instructions, but not beside the tools.
        let model = MockLanguageModel(contextSize: bare + 100, replies: [.text("Fine day, friend.")])
        let game = Game(state: try richState(named: "Di"), models: { _, _ in model })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        #expect(!screen.all.contains { if case .problem = $0 { true } else { false } }, "\(screen.text)")
        #expect(screen.text.contains("Mira Quickcoin: Fine day, friend."))
        // The model was asked once, without tools; the NPC's own session keeps its tools and has the answer.
        #expect(model.requests.count == 1)
        #expect(model.requests.first?.tools.isEmpty == true)
        let kept = try #require(await game.session(of: "mira"))
        #expect(!kept.tools.isEmpty)
        #expect(kept.transcript.last?.description.contains("Fine day, friend.") == true)
        #expect(await game.conversations["mira"]?.history.last?.description.contains("Fine day, friend.") == true)
    }
}
