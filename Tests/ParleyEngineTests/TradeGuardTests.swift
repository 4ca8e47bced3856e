import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import NPCContract
import ParleyJSON
import Testing

@testable import ParleyEngine

/// Misbehaving models propose offers the rules forbid: each is refused, changes nothing, is explained to the
/// model, and becomes exactly one feedback report with the game context.
@Suite struct TradeGuardTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var npc: String
        var path: [String] = []
        var arguments: String
        var reason: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "price below the NPC's lowest", npc: "mira",
            arguments: #"{"action":"sell","item":"lantern","price":1}"#, reason: "accepts no less than 20"),
        Case(
            name: "player cannot pay", npc: "mira", arguments: #"{"action":"sell","item":"lantern","price":25}"#,
            reason: "has only 14"),
        Case(
            name: "NPC lacks the item", npc: "mira", arguments: #"{"action":"sell","item":"silver sword","price":200}"#,
            reason: "Silver Sword"),
        Case(
            name: "item never sold", npc: "mira", arguments: #"{"action":"sell","item":"brass scales","price":40}"#,
            reason: "Brass Scales"),
        Case(
            name: "unknown item", npc: "mira", arguments: #"{"action":"sell","item":"dragon egg","price":5}"#,
            reason: "no such item as \"dragon egg\""),
        Case(
            name: "zero quantity", npc: "mira", arguments: #"{"action":"sell","item":"candle","quantity":0,"price":0}"#,
            reason: "quantity"),
        Case(
            name: "negative quantity", npc: "mira",
            arguments: #"{"action":"sell","item":"candle","quantity":-3,"price":2}"#, reason: "quantity"),
        Case(
            name: "absurd quantity", npc: "mira",
            arguments: #"{"action":"sell","item":"candle","quantity":1000000,"price":2}"#, reason: "more than 10000"),
        Case(
            name: "buying what the player lacks", npc: "mira",
            arguments: #"{"action":"buy","item":"wool cloak","price":5}"#, reason: "Wool Cloak"),
        Case(
            name: "quest item", npc: "mira", arguments: #"{"action":"sell","item":"moonpetal locket","price":5}"#,
            reason: "Moonpetal Locket"),
        Case(
            name: "untradeable item", npc: "oona", path: ["north"],
            arguments: #"{"action":"sell","item":"guard badge","price":5}"#, reason: "badge"),
        Case(
            name: "NPC does not trade", npc: "oona", path: ["north"],
            arguments: #"{"action":"sell","item":"apple","price":5}"#, reason: "trade"),
    ]

    @Test(arguments: cases)
    func aRefusedOfferChangesNothingIsExplainedAndReported(_ test: Case) async throws {
        let model = MockLanguageModel(replies: [
            .toolCall("offerTrade", arguments: test.arguments), .text("Ahem. Let me think again."),
        ])
        let game = try game(model)
        let screen = Screen()
        for step in test.path { await game.perform(step, output: screen.record) }
        let before = await game.state
        await game.perform("talk to \(test.npc)", output: screen.record)
        // State is unchanged and nothing is pending.
        #expect(await game.state == before)
        #expect(await game.pendingOffers.isEmpty)
        // The model was told why, in the tool output.
        let output = try #require(model.requests.last?.transcript.last)
        guard case .toolOutput(let toolOutput) = output, case .structure(let segment)? = toolOutput.segments.first
        else {
            Issue.record("no structured tool output"); return
        }
        let result = try ActionResult(segment.content)
        #expect(result.status == .refused)
        let reasons = result.reasons.map(\.message)
        #expect(reasons.contains { $0.localizedCaseInsensitiveContains(test.reason) }, "\(reasons)")
        // The player heard the NPC, not an error.
        #expect(screen.text.contains("Ahem. Let me think again."))
        #expect(!screen.all.contains { if case .problem = $0 { true } else { false } })
        // Exactly one feedback report, with the app context and the whole transcript.
        let reports = await game.feedback
        #expect(reports.count == 1)
        let attachment = try #require(reports.first?.attachment)
        #expect(attachment.sentiment == .negative)
        #expect(attachment.issues.first?.category == .incorrect)
        let explanation = try #require(attachment.issues.first?.explanation)
        #expect(
            explanation.hasPrefix(
                "Unexpected trade offer. App context — player: Traveller, gold: 14, inventory: 1 × Aunt's Letter, 2 × Loaf of Bread, 1 × Rusty Sword"
            ))
        #expect(explanation.contains("NPC: "))
        #expect(explanation.contains("stock: "))
        #expect(explanation.contains("offer: "))
        #expect(explanation.contains(reasons[0]))
        #expect(attachment.transcript == (await game.session(of: NPCID(test.npc))?.transcript))
        #expect(attachment.context["kind"] == "refusedOffer")
    }

    @Test func anOfferThatContradictsTheQuotedPriceIsRefused() async throws {
        let model = MockLanguageModel(replies: [
            .text("The Brass Lantern is 20 gold, friend."),
            .toolCall("offerTrade", arguments: #"{"action":"sell","item":"lantern","price":24}"#),
            .text("Oh, did I say twenty?"),
        ])
        var state = try shippedPack().initialState
        try state.apply(.receivedGold(amount: 20, from: "mira"))
        let game = try game(model, state: state)
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform("I'll take it", output: screen.record)
        #expect(await game.pendingOffers.isEmpty)
        let reasons = await game.refusedOffers.first?.reasons ?? []
        #expect(reasons == ["Mira Quickcoin just said the Brass Lantern costs 20 gold, but the offer asks 24."])
    }

    @Test(arguments: [
        (#"{"action":"steal","item":"lantern","price":0}"#, #"expected "sell" or "buy", found "steal""#),
        (#"{"action":"sell","item":"lantern"}"#, "price"),
        (#"{"action":"sell","item":"lantern","price":"lots"}"#, "price"),
    ])
    func anOfferTheGameCannotReadIsRefusedAndReported(arguments: String, detail: String) async throws {
        // An offer is an offer even when its terms cannot be read: it changes nothing, the model hears why, and it is
        // reported like any other unexpected offer.
        let model = MockLanguageModel(replies: [.toolCall("offerTrade", arguments: arguments), .text("Ahem.")])
        let game = try game(model)
        let screen = Screen()
        let before = await game.state
        await game.perform("talk to mira", output: screen.record)
        #expect(await game.state == before)
        #expect(await game.pendingOffers.isEmpty)
        guard case .toolOutput(let output)? = model.requests.last?.transcript.last,
            case .structure(let structure)? = output.segments.first
        else {
            Issue.record("no structured tool output: \(String(describing: model.requests.last?.transcript.last))")
            return
        }
        let result = try ActionResult(structure.content)
        #expect(result.status == .refused)
        let reason = try #require(result.reasons.first?.message)
        #expect(reason.hasPrefix("The offer could not be read ("), "\(reason)")
        #expect(reason.contains(detail), "\(reason)")
        let refused = await game.refusedOffers
        #expect(refused.count == 1)
        #expect(refused.first?.offer == nil)
        #expect(refused.first?.reasons == [reason])
        #expect(await game.feedback.count == 1)
        #expect(screen.text.contains("Ahem."))
    }

    @Test func anActionInAnotherCaseIsStillAnAction() async throws {
        let model = MockLanguageModel(replies: [
            .toolCall("offerTrade", arguments: #"{"action":"SELL","item":"candle","price":2}"#), .text("Done."),
        ])
        let game = try game(model)
        await game.perform("talk to mira", output: Screen().record)
        #expect(await game.pendingOffers["mira"]?.offer == .buying("candle", from: "mira", for: 2))
    }

    @Test func theGuardJudgesWithTheRulesTheGameWasMadeWith() async throws {
        // Four candles for 8 gold: within the standard rules, but not within rules that move at most 3 of an item.
        let offer = #"{"action":"sell","item":"candle","quantity":4,"price":8}"#
        let pack = try shippedPack()
        func play(_ rules: TradeRules) async throws -> (Game, MockLanguageModel) {
            let model = MockLanguageModel(replies: [.toolCall("offerTrade", arguments: offer), .text("Well?")])
            let game = Game(state: pack.initialState, models: { _, _ in model }, rules: rules)
            await game.perform("talk to mira", output: Screen().record)
            return (game, model)
        }
        let (standard, _) = try await play(.standard)
        #expect(await standard.pendingOffers["mira"]?.offer == .buying("candle", quantity: 4, from: "mira", for: 8))

        let (strict, model) = try await play(TradeRules(maximumQuantity: 3))
        #expect(await strict.pendingOffers.isEmpty)
        let reasons = try #require(await strict.refusedOffers.first).reasons
        #expect(reasons == ["No trade can move more than 3 of an item; the offer has 4 × Tallow Candle."])
        guard case .toolOutput(let output)? = model.requests.last?.transcript.last,
            case .structure(let segment)? = output.segments.first
        else {
            Issue.record("no structured tool output"); return
        }
        #expect(try ActionResult(segment.content) == .refused(reasons.map(RefusalReason.stated)))
        // `propose` (guided generation) goes through the same guard.
        let proposal = OfferTrade.Arguments(action: .sell, item: "candle", quantity: 4, price: 8)
        let decision = await strict.propose(proposal, from: "mira")
        #expect(decision == .refused(reasons: reasons))
    }

    @Test func validOffersAreNeverRefused() async throws {
        // Every item each trading NPC sells, at its asking and its lowest price, to a player who can pay.
        let pack = try shippedPack()
        for npc in pack.world.npcs.values where npc.trade.trades {
            var world = pack.world
            world.locations[npc.location]?.exits.append(.init(direction: "here", destination: npc.location))
            var player = pack.startingPlayer
            player.location = npc.location
            player.gold = 100_000
            for stack in npc.inventory {
                guard let item = world.items[stack.item], npc.sells(item) else { continue }
                for price in [npc.trade.askingPrice(forValue: item.value), npc.trade.lowestPrice(forValue: item.value)]
                {
                    let guardian = TradeGuard(quotes: [:], rules: .standard)
                    let verdict = guardian.review(
                        action: .sell, item: item.name, quantity: 1, price: price, npc: npc.id,
                        in: GameState(world: world, player: player))
                    if case .refused(_, let reasons) = verdict {
                        Issue.record("\(npc.name) selling \(item.name) at \(price): \(reasons)")
                    }
                }
            }
        }
    }

    @Test func quotesAreReadFromTheNPCsWords() throws {
        let world = try shippedPack().world
        let quotes = TradeGuard.quotes(
            in: "The Brass Lantern is 25 gold. A coil of rope is 8 gold! Bread and candles, 2 gold.", world: world)
        #expect(quotes[ItemID("lantern")] == 25)
        #expect(quotes[ItemID("rope")] == 8)
        #expect(quotes.count == 2)  // the sentence naming two items is ambiguous and skipped
    }

    /// A swap ("my rusty sword plus 100 gold for the silver sword") is weighed whole, in net gold: Brannoc's lowest
    /// price for the silver sword (108) less what he pays for the rusty sword (8) is exactly enough; a gold less is
    /// not.
    @Test(arguments: [(100, true), (99, false)])
    func aSwapIsWeighedInNetGold(gold: Int, allowed: Bool) throws {
        let pack = try shippedPack()
        var player = pack.startingPlayer
        player.location = try #require(pack.world.npcs["brannoc"]).location
        player.gold = 100
        let verdict = TradeGuard(quotes: [:], rules: .standard).review(
            action: .sell, item: "silver sword", quantity: 1, price: gold, partExchange: ("rusty sword", 1),
            npc: "brannoc", in: GameState(world: pack.world, player: player))
        switch verdict {
        case .allowed(let offer):
            #expect(allowed)
            #expect(offer.playerGives == TradeSide(items: [ItemStack("rusty_sword")], gold: gold))
            #expect(offer.npcGives == TradeSide(items: [ItemStack("silver_sword")]))
            // The summary names the gold only on the side that has some.
            #expect(
                offer.summary(in: pack.world)
                    == "Brannoc Ashdown offers 1 Silver Sword for your 1 Rusty Sword and \(gold) gold.")
        case .refused(_, let reasons):
            #expect(!allowed, "\(reasons)")
        }
    }

    /// A swap's summary lists each side's goods and gold in the NPC's language, leaving out gold that is not there.
    @Test func aSwapsSummaryListsEachSidesGoodsAndGoldInTheNPCsLanguage() throws {
        let world = try shippedPack().world
        let both = TradeOffer(
            npc: "brannoc", playerGives: TradeSide(items: [ItemStack("rusty_sword"), ItemStack("bread", quantity: 2)], gold: 5),
            npcGives: TradeSide(items: [ItemStack("iron_dagger")], gold: 3))
        #expect(
            both.summary(in: world)
                == "Brannoc Ashdown offers 1 Iron Dagger and 3 gold for your 1 Rusty Sword, 2 × Loaf of Bread and 5 gold.")
        let swap = TradeOffer(
            npc: "greta", playerGives: TradeSide(items: [ItemStack("messer")], gold: 7),
            npcGives: TradeSide(items: [ItemStack("laterne")]))
        #expect(
            swap.summary(in: try GermanGameTests.marktplatz().world)
                == "Greta Krämer bietet dir 1 Laterne für 1 Messer und 7 Gold an.")
    }
}
