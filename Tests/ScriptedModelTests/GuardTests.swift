import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// A guard on duty does not trade: without trade tools it never calls them, and even when offered them its
/// policy (`trades: false`) keeps it from calling them.
@Suite struct GuardTests {
    static let lines = [
        "What do you sell?", "How much is your badge?", "I'll take the dagger", "Would you take 20 for the dagger?",
        "Sell me something", "I want to sell my rusty sword", "What would you pay for my bread?",
        "Here, take this bread",
        "Too expensive!", "I'm hungry", "Hello", "Give me the badge",
    ]

    @Test func withoutTradeToolsItNeverCallsThem() async throws {
        let visit = try Packs.visit("oona")
        let session = try visit.session(tools: visit.guardTools)
        let voice = try Packs.voice("oona")
        for line in Self.lines {
            let turn = try await session.turn(line)
            #expect(turn.calls.allSatisfy { $0.hasPrefix("inspectPlayer") }, "\(line): \(turn.calls)")
            #expect(!turn.reply.isEmpty)
        }
        let trade = try await session.turn("How much is the dagger?")
        #expect(voice.said(trade.reply, "on_duty"))
    }

    @Test func evenWithTradeToolsAGuardWhoDoesNotTradeNeverCallsThem() async throws {
        let visit = try Packs.visit("oona")
        let session = try visit.session()
        for line in Self.lines { _ = try await session.turn(line) }
        let calls = NPCVisit.calls(in: session)
        #expect(calls.allSatisfy { $0.hasPrefix("inspectPlayer") }, "\(calls)")
        #expect(visit.game.player.inventory == (try Packs.start()).player.inventory)
    }

    @Test func anNPCWithoutRulesOrTradeToolsSaysItIsNotTrading() async throws {
        let visit = try Packs.visit("mira")
        let session = try visit.session(tools: [])
        let turn = try await session.turn("I'll take the lantern")
        #expect(turn.calls.isEmpty)
        #expect(!turn.reply.isEmpty)
    }
}
