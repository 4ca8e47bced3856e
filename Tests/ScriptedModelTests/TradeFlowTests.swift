import ContentPacks
import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// The trade flows, end to end: a `LanguageModelSession` driven by `ScriptedModel` with tools that implement the
/// engine's contract over a real `GameState` and `TradeRules`, against the shipped pack.
@Suite struct TradeFlowTests {
    @Test func askingWhatIsForSaleLooksUpTheStockAndListsItWithPrices() async throws {
        let visit = try Packs.visit("mira")
        let session = try visit.session()
        let turn = try await session.turn("What do you sell?")
        #expect(turn.calls == [#"lookUpStock({})"#])
        #expect(try Packs.voice("mira").said(turn.reply, "stock", .listed))
        #expect(turn.reply.contains("Brass Lantern (25 gold)"))
        #expect(turn.reply.contains("Coil of Rope (8 gold, 2 in stock)"))
        #expect(!turn.reply.contains("Scales"), "never items it will not sell")
    }

    @Test(arguments: [
        ("how much is the lantern?", "lantern"), ("What does the lamp cost?", "lantern"),
        ("price of rope?", "rope"), ("do you have boots?", "leather_boots"), ("lantern?", "lantern"),
    ])
    func askingAPriceLooksUpThatItem(line: String, item: String) async throws {
        let visit = try Packs.visit("mira")
        let turn = try await visit.session().turn(line)
        #expect(turn.calls == [#"lookUpStock({"item":"\#(item)"})"#])
        #expect(try Packs.voice("mira").said(turn.reply, "price", .priced))
    }

    @Test func thePriceIsTheAskingPrice() async throws {
        let turn = try await Packs.visit("mira").session().turn("How much is the lantern?")
        #expect(turn.reply.contains("25 gold"))
        #expect(turn.reply.contains("friend"))
    }

    @Test func askingForWhatTheNPCDoesNotSellSaysSo() async throws {
        let visit = try Packs.visit("mira")
        let turn = try await visit.session().turn("How much is the unicorn horn?")
        #expect(turn.calls == [#"lookUpStock({"item":"unicorn horn"})"#])
        #expect(try Packs.voice("mira").said(turn.reply, "price", .missing))
        #expect(turn.reply.lowercased().contains("unicorn horn"))
    }

    @Test func takingAnItemLooksItUpThenOffersItAtTheAskingPrice() async throws {
        let visit = try Packs.visit("mira", gold: 40)
        let turn = try await visit.session().turn("I'll take the lantern")
        #expect(
            turn.calls == [
                #"lookUpStock({"item":"lantern"})"#, "inspectPlayer({})",
                #"offerTrade({"action":"sell","item":"lantern","quantity":1,"price":25})"#,
            ])
        #expect(try Packs.voice("mira").said(turn.reply, "buy", .pending))
        #expect(
            turn.reply.contains("25 gold") || turn.reply.contains("Mira Quickcoin offers 1 Brass Lantern for 25 gold."))
        #expect(visit.pending?.offer == .buying("lantern", from: "mira", for: 25))
    }

    @Test func quantitiesAreBoughtAtTheUnitPriceTimesQuantity() async throws {
        let visit = try Packs.visit("hesper", gold: 40)
        let turn = try await visit.session().turn("Two loaves of bread, please")
        #expect(turn.calls.last == #"offerTrade({"action":"sell","item":"bread","quantity":2,"price":6})"#)
        #expect(try Packs.voice("hesper").said(turn.reply, "buy", .pending))
    }

    @Test func aMerchantNamesThePriceInsteadOfOfferingWhatThePlayerCannotPay() async throws {
        let visit = try Packs.visit("mira", gold: 14)
        let turn = try await visit.session().turn("I'll take the lantern")
        #expect(turn.calls == [#"lookUpStock({"item":"lantern"})"#, "inspectPlayer({})"])
        #expect(turn.reply.contains("25 gold"))
        #expect(visit.pending == nil)
    }

    @Test func hagglingAtAPriceThePlayerCannotPayIsRefusedInVoice() async throws {
        let visit = try Packs.visit("mira", gold: 14)
        let session = try visit.session()
        _ = try await session.turn("How much is the lantern?")
        let turn = try await session.turn("Would you take 20?")
        #expect(turn.calls == ["inspectPlayer({})"])
        #expect(try Packs.voice("mira").said(turn.reply, "haggle", .refused))
        #expect(turn.reply.contains("You have only 14 gold."))
        #expect(visit.pending == nil)
    }

    @Test func haggling() async throws {
        let visit = try Packs.visit("mira", gold: 40)
        let session = try visit.session()
        let voice = try Packs.voice("mira")
        _ = try await session.turn("I'll take the lantern")

        // A price at or above the lowest becomes the pending offer.
        var turn = try await session.turn("Would you take 22?")
        #expect(
            turn.calls == [
                "inspectPlayer({})", #"offerTrade({"action":"sell","item":"lantern","quantity":1,"price":22})"#,
            ])
        #expect(voice.said(turn.reply, "haggle", .pending))
        #expect(visit.pending?.offer == .buying("lantern", from: "mira", for: 22))

        // Below the lowest price she looked up, she counters at that lowest price.
        turn = try await session.turn("how about fifteen gold?")
        #expect(
            turn.calls == [
                "inspectPlayer({})", #"offerTrade({"action":"sell","item":"lantern","quantity":1,"price":20})"#,
            ])
        #expect(voice.said(turn.reply, "haggle", .pending))
        #expect(visit.pending?.offer == .buying("lantern", from: "mira", for: 20))
        turn = try await session.turn("Would you take 22 after all?")
        #expect(visit.pending?.offer == .buying("lantern", from: "mira", for: 22))

        // Asking for a better price meets halfway between the pending price and the lowest.
        turn = try await session.turn("That's too expensive")
        #expect(
            turn.calls == [
                "inspectPlayer({})", #"offerTrade({"action":"sell","item":"lantern","quantity":1,"price":21})"#,
            ])
        turn = try await session.turn("cheaper?")
        #expect(
            turn.calls == [
                "inspectPlayer({})", #"offerTrade({"action":"sell","item":"lantern","quantity":1,"price":20})"#,
            ])
        turn = try await session.turn("any discount?")
        #expect(
            turn.calls == [
                "inspectPlayer({})", #"offerTrade({"action":"sell","item":"lantern","quantity":1,"price":20})"#,
            ])
    }

    @Test func aRefusedHaggleSaysTheLowestPriceTheGameNamed() async throws {
        // Tam cannot look up his stock here, so the bid goes to the game as it is, which refuses it below his lowest
        // price (1 gold a nail, 20 for twenty); `{lowest}` is that price for one.
        let dialogue = """
            { "rules": [
                { "id": "haggle", "when": { "intent": "haggle" },
                  "outcomes": { "refused": ["Not under {lowest} gold a nail."] } } ] }
            """
        let pack = try ContentPack.load(files: HandBuiltPack.files(dialogue: dialogue)).get()
        let visit = try NPCVisit(pack.initialState, npc: "tam")
        let session = try visit.session(tools: visit.tools.filter { $0.name != NPCTool.lookUpStock.rawValue })
        let turn = try await session.turn("would you take 15 gold for 20 nails?")
        #expect(turn.calls.last == #"offerTrade({"action":"sell","item":"nail","quantity":20,"price":15})"#)
        #expect(turn.reply == "Not under 1 gold a nail.")
        #expect(visit.pending == nil)
    }

    @Test func hagglingAfterOnlyAPriceWasQuotedUsesThatItem() async throws {
        let visit = try Packs.visit("mira", gold: 40)
        let session = try visit.session()
        _ = try await session.turn("How much is the lantern?")
        let turn = try await session.turn("20?")
        #expect(
            turn.calls == [
                "inspectPlayer({})", #"offerTrade({"action":"sell","item":"lantern","quantity":1,"price":20})"#,
            ])
        #expect(try Packs.voice("mira").said(turn.reply, "haggle", .pending))
    }

    @Test func sellingLooksAtThePlayerThenOffersTheBuyBackPrice() async throws {
        let visit = try Packs.visit("brannoc")
        let turn = try await visit.session().turn("I want to sell my rusty sword")
        #expect(
            turn.calls == [
                #"inspectPlayer({})"#, #"offerTrade({"action":"buy","item":"rusty_sword","quantity":1,"price":8})"#,
            ])
        #expect(try Packs.voice("brannoc").said(turn.reply, "sell", .pending))
        #expect(visit.pending?.offer == .selling("rusty_sword", to: "brannoc", for: 8))
    }

    @Test(arguments: ["what would you pay for my things?", "sell you something?", "would you buy anything of mine?"])
    func sellingWithoutNamingAnItemAppraisesWhatThePlayerCarries(line: String) async throws {
        let visit = try Packs.visit("brannoc")
        let turn = try await visit.session().turn(line)
        #expect(turn.calls == [#"inspectPlayer({})"#])
        #expect(try Packs.voice("brannoc").said(turn.reply, "sell", .appraised))
        // The one thing Brannoc buys that the player carries reads as a price.
        #expect(turn.reply.contains("8 gold for your Rusty Sword"))
    }

    @Test(arguments: [
        "what would you pay for my sword?", "what's my rusty sword worth to you?", "how much for my rusty sword?",
    ])
    func askingWhatTheNPCWouldPayNamesAPriceWithoutAnOffer(line: String) async throws {
        let visit = try Packs.visit("brannoc")
        let turn = try await visit.session().turn(line)
        #expect(turn.calls == [#"inspectPlayer({})"#])
        #expect(try Packs.voice("brannoc").said(turn.reply, "sell", .appraised))
        #expect(turn.reply.contains("8 gold for your Rusty Sword"))
        #expect(visit.pending == nil)
    }

    @Test(arguments: ["deal", "yes", "ok"])
    func aYesAfterAnAppraisalSellsTheThingAppraised(answer: String) async throws {
        let visit = try Packs.visit("brannoc")
        let session = try visit.session()
        _ = try await session.turn("what would you pay for my sword?")
        let turn = try await session.turn(answer)
        #expect(turn.calls.last == #"offerTrade({"action":"buy","item":"rusty_sword","quantity":1,"price":8})"#)
        #expect(visit.pending?.offer == .selling("rusty_sword", to: "brannoc", for: 8))
    }

    @Test func aYesAfterAPriceQuoteBuysTheItemQuoted() async throws {
        let visit = try Packs.visit("mira", gold: 20)
        let session = try visit.session()
        _ = try await session.turn("how much for the rope?")
        #expect(visit.pending == nil)
        let turn = try await session.turn("deal")
        #expect(turn.calls.last == #"offerTrade({"action":"sell","item":"rope","quantity":1,"price":8})"#)
        #expect(visit.pending != nil)
    }

    @Test func aYesAfterAWholeStockListIsNoPurchase() async throws {
        let visit = try Packs.visit("mira", gold: 20)
        let session = try visit.session()
        _ = try await session.turn("what do you sell?")
        let turn = try await session.turn("yes")
        #expect(!turn.calls.contains { $0.hasPrefix("offerTrade") })
        #expect(visit.pending == nil)
    }

    @Test func sellingWhatTheNPCDoesNotBuyIsDeclinedInVoice() async throws {
        let visit = try Packs.visit("aurelio")
        let turn = try await visit.session().turn("sell my rusty sword")
        #expect(turn.calls == [#"inspectPlayer({})"#])
        #expect(try Packs.voice("aurelio").said(turn.reply, "sell", .notWanted))
    }

    @Test func acceptingAnOfferIsWelcomedAndTheTradeHappens() async throws {
        let visit = try Packs.visit("brannoc")
        let session = try visit.session()
        _ = try await session.turn("sell my rusty sword")
        let turn = try await session.turn(try visit.acceptPending())
        #expect(turn.calls.isEmpty)
        #expect(try Packs.voice("brannoc").said(turn.reply, "deal_done"))
        #expect(visit.game.player.gold == 22)
        #expect(!visit.game.player.inventory.contains("rusty_sword"))
    }

    @Test func decliningAnOfferIsTakenInVoice() async throws {
        let visit = try Packs.visit("pip", gold: 20)
        let session = try visit.session()
        _ = try await session.turn("I'll have a trout")
        #expect(visit.pending != nil)
        let turn = try await session.turn(try visit.declinePending())
        #expect(try Packs.voice("pip").said(turn.reply, "deal_declined"))
    }

    @Test func theNPCRefersBackToThePendingOffer() async throws {
        let visit = try Packs.visit("mira", gold: 40)
        let session = try visit.session()
        let voice = try Packs.voice("mira")
        _ = try await session.turn("I'll take the lantern")

        let confused = try await session.turn("blorp")
        #expect(voice.said(confused.reply, "unknown", .offerPending))
        #expect(confused.reply.contains("Brass Lantern"))

        let yes = try await session.turn("yes")
        #expect(voice.said(yes.reply, "yes", .offerPending))

        let bye = try await session.turn(visit.left)
        #expect(voice.said(bye.reply, "farewell", .offerPending))

        let back = try await session.turn(visit.arrived)
        #expect(voice.said(back.reply, "returning", .offerPending))
        #expect(back.reply.contains("Brass Lantern"))
    }

    @Test func specialItemsAreNeverOfferedAndGetTheirOwnLines() async throws {
        let visit = try Packs.visit("mira", gold: 40)
        let turn = try await visit.session().turn("How much for your brass scales?")
        #expect(turn.calls.isEmpty)
        #expect(try Packs.voice("mira").said(turn.reply, "scales_not_for_sale"))
        let owl = try await Packs.visit("aurelio", gold: 500).session().turn("I'll buy the porcelain owl")
        #expect(owl.calls.isEmpty)
        #expect(try Packs.voice("aurelio").said(owl.reply, "owl_not_for_sale"))
    }

    @Test func ambiguousWordsAskWhichItemIsMeant() async throws {
        let turn = try await Packs.visit("brannoc").session().turn("How much is the sword?")
        #expect(turn.calls.isEmpty)
        #expect(try Packs.voice("brannoc").said(turn.reply, "price", .ambiguous))
        #expect(turn.reply.contains("Short Sword or Silver Sword"))
    }
}
