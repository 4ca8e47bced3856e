import ContentPacks
import GameWorld
import LanguageModels
import Testing

@testable import ScriptedModel

/// Haggling as docs/modding.md says: a bid below the NPC's lowest price is countered at that price, whether or not
/// the price was asked first; a refusal gives every reason the game gave; `{lowest}` is filled whenever the NPC sells
/// the item in play.
@Suite struct HaggleTests {
    @Test(
        arguments: [
            (
                "mira", "would you take 5 for the lantern?", "how much is the lantern?",
                TradeOffer.buying("lantern", from: "mira", for: 20)
            ),
            ("pip", "1 gold for a trout?", "how much is a trout?", .buying("smoked_fish", from: "pip", for: 3)),
            (
                "brannoc", "I'll give you 10 for the short sword", "price on the short sword?",
                .buying("short_sword", from: "brannoc", for: 36)
            ),
            ("aurelio", "thirty for the fan", "how much is the fan?", .buying("painted_fan", from: "aurelio", for: 40)),
        ] as [(NPCID, String, String, TradeOffer)])
    func aBidBelowTheLowestPriceGetsTheSameCounterOfferWhetherOrNotThePriceWasAsked(
        npc: NPCID, bid: String, question: String, counter: TradeOffer
    ) async throws {
        let cold = try Packs.visit(npc, gold: 100)
        let coldTurn = try await cold.session().turn(bid)
        let asked = try Packs.visit(npc, gold: 100)
        let session = try asked.session()
        _ = try await session.turn(question)
        let askedTurn = try await session.turn(bid)
        #expect(cold.pending?.offer == counter, "\(coldTurn.reply)")
        #expect(asked.pending?.offer == counter, "\(askedTurn.reply)")
        #expect(AskedActionTests.outcome(of: coldTurn) == .pending)
        #expect(AskedActionTests.outcome(of: askedTurn) == .pending)
    }

    @Test func askingForItFreeIsRefusedWithTheLowestPriceEitherWay() async throws {
        for before in [[], ["how much is a pie?"]] {
            let visit = try Packs.visit("hesper", gold: 30)
            let session = try visit.session()
            for line in before { _ = try await session.turn(line) }
            let turn = try await session.turn("I'll have a pie for nothing")
            #expect(visit.pending == nil, "\(turn.reply)")
            #expect(turn.reply.contains("6"), "\(turn.reply)")
        }
    }

    @Test func aRefusalForAnotherReasonThanThePriceSaysThatReason() async throws {
        // Mira's haggle rule has a refusal that only says her lowest price; the player here cannot pay even that.
        let visit = try Packs.visit("mira", gold: 3)
        let turn = try await visit.session().turn("would you take 15 for the lantern?")
        #expect(visit.pending == nil)
        #expect(turn.reply.contains("3 gold"), "\(turn.reply)")
        #expect(!turn.reply.contains("can't go under"), "\(turn.reply)")
    }

    @Test(arguments: [
        ("Not under {lowest}.", false, true), ("Keep trying.", false, false), ("No: {reasons}", true, true),
    ])
    func aRefusalIsSaidWithItsReasonsOrWithTheLowestPriceWhenThatIsTheOnlyOne(
        variant: String, saysOtherReasons: Bool, saysThePrice: Bool
    ) throws {
        let template = try DialogueTemplate.parse(variant).get()
        var facts = ReplyFacts()
        facts.reasons = ["You have only 3 gold."]
        #expect(ScriptedModel.saysEveryReason(template, outcome: .refused, facts: facts) == saysOtherReasons)
        facts.refusedOnlyForPrice = true
        #expect(ScriptedModel.saysEveryReason(template, outcome: .refused, facts: facts) == saysThePrice)
        // Other outcomes are not concerned.
        #expect(ScriptedModel.saysEveryReason(template, outcome: .pending, facts: facts))
    }

    @Test func theLowestPriceIsFilledWheneverTheNPCSellsTheItem() async throws {
        let dialogue = """
            { "rules": [
                { "id": "price", "when": { "intent": "askPrice" },
                  "outcomes": { "priced": ["{price} gold, never under {lowest}."] } },
                { "id": "buy", "when": { "intent": "buy" },
                  "outcomes": { "pending": ["Done at {price}; I'd have gone to {lowest} a nail."] } } ] }
            """
        let pack = try ContentPack.load(files: HandBuiltPack.files(dialogue: dialogue)).get()
        let visit = try NPCVisit(pack.initialState, npc: "tam")
        let session = try visit.session()
        #expect(try await session.turn("how much is a nail?").reply == "2 gold, never under 1.")
        // No look-up this turn for the lowest price: the conversation's, or the policy's.
        #expect(try await session.turn("I'll take 3 nails").reply == "Done at 6; I'd have gone to 1 a nail.")
    }
}
