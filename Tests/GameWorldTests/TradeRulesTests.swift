import Foundation
import GameWorld
import GameWorldFixtures
import Testing

/// One offer and exactly the reasons it must be rejected for.
struct RejectionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let offer: TradeOffer
    let expected: [TradeRejection]
    var testDescription: String { name }
}

@Suite struct TradeRulesTests {
    let rules = TradeRules.standard
    let state = TestWorld.state

    // MARK: - Every rejection reason

    static let rejectionCases: [RejectionCase] = [
        RejectionCase(
            name: "unknownNPC", offer: .buying("sword", from: "nobody", for: 60), expected: [.unknownNPC(npc: "nobody")]
        ),
        RejectionCase(
            name: "npcNotPresent", offer: .buying("bread", from: "mira", for: 3),
            expected: [.npcNotPresent(npc: "mira", npcLocation: "square", playerLocation: "smithy")]),
        RejectionCase(
            name: "npcDoesNotTrade", offer: .buying("sword", from: "oona", for: 60),
            expected: [.npcDoesNotTrade(npc: "oona")]),
        RejectionCase(name: "emptyOffer", offer: TradeOffer(npc: "brannoc"), expected: [.emptyOffer]),
        RejectionCase(
            name: "negativeGold", offer: .buying("lantern", from: "brannoc", for: -5),
            expected: [.negativeGold(party: .player, amount: -5)]),
        RejectionCase(
            name: "absurdGold", offer: .selling("dagger", to: "brannoc", for: 2_000_000_000),
            expected: [.absurdGold(party: .npc, amount: 2_000_000_000, limit: 1_000_000_000)]),
        RejectionCase(
            name: "unknownItem", offer: .buying("swrod", from: "brannoc", for: 60),
            expected: [.unknownItem(item: "swrod", party: .npc)]),
        RejectionCase(
            name: "invalidQuantity zero", offer: .buying("lantern", quantity: 0, from: "brannoc", for: 30),
            expected: [.invalidQuantity(item: "lantern", quantity: 0, party: .npc)]),
        RejectionCase(
            name: "invalidQuantity negative", offer: .selling("dagger", quantity: -3, to: "brannoc", for: 0),
            expected: [.invalidQuantity(item: "dagger", quantity: -3, party: .player)]),
        RejectionCase(
            name: "absurdQuantity", offer: .buying("lantern", quantity: 20_000, from: "brannoc", for: 100),
            expected: [.absurdQuantity(item: "lantern", quantity: 20_000, limit: 10_000, party: .npc)]),
        RejectionCase(
            name: "questItem", offer: .selling("old_key", to: "brannoc", for: 0),
            expected: [.questItem(item: "old_key", party: .player)]),
        RejectionCase(
            name: "untradeableItem", offer: .selling("guild_seal", to: "brannoc", for: 0),
            expected: [.untradeableItem(item: "guild_seal", party: .player)]),
        RejectionCase(
            name: "npcLacksItem (some)", offer: .buying("sword", quantity: 2, from: "brannoc", for: 96),
            expected: [.npcLacksItem(npc: "brannoc", item: "sword", requested: 2, available: 1)]),
        RejectionCase(
            name: "npcLacksItem (none)", offer: .buying("dagger", from: "brannoc", for: 30),
            expected: [.npcLacksItem(npc: "brannoc", item: "dagger", requested: 1, available: 0)]),
        RejectionCase(
            name: "playerLacksItem", offer: .selling("dagger", quantity: 3, to: "brannoc", for: 0),
            expected: [.playerLacksItem(item: "dagger", requested: 3, available: 2)]),
        RejectionCase(
            name: "npcNeverSells", offer: .buying("hammer", from: "brannoc", for: 90),
            expected: [.npcNeverSells(npc: "brannoc", item: "hammer")]),
        RejectionCase(
            name: "npcDoesNotSell", offer: .buying("apple", from: "brannoc", for: 5),
            expected: [.npcDoesNotSell(npc: "brannoc", item: "apple", category: "food")]),
        RejectionCase(
            name: "npcDoesNotBuy", offer: .selling("bread", to: "brannoc", for: 0),
            expected: [.npcDoesNotBuy(npc: "brannoc", item: "bread", category: "food")]),
        RejectionCase(
            name: "playerCannotPay", offer: .buying("sword", from: "brannoc", for: 150),
            expected: [.playerCannotPay(gold: 150, available: 100)]),
        RejectionCase(
            name: "npcCannotPay", offer: .selling("silver_sword", to: "brannoc", for: 40),
            expected: [.npcCannotPay(npc: "brannoc", gold: 40, available: 30)]),
        RejectionCase(
            name: "priceOutsidePolicy (selling too cheap)", offer: .buying("sword", from: "brannoc", for: 1),
            expected: [.priceOutsidePolicy(npc: "brannoc", minimum: 48, asking: 60, offered: 1)]),
        RejectionCase(
            name: "priceOutsidePolicy (buying too dear)", offer: .selling("dagger", to: "brannoc", for: 15),
            expected: [.priceOutsidePolicy(npc: "brannoc", minimum: -10, asking: -10, offered: -15)]),
    ]

    @Test(arguments: rejectionCases)
    func rejectsForExactlyTheseReasons(_ testCase: RejectionCase) {
        let verdict = rules.validate(testCase.offer, in: state)
        #expect(verdict == .rejected(testCase.expected))
        for reason in verdict.rejections {
            let sentence = reason.explanation(in: state.world)
            #expect(sentence.hasSuffix("."))
            #expect(sentence.first?.isUppercase == true)
            #expect(reason.description.hasPrefix(reason.code + ":"))
        }
    }

    @Test func everyReasonIsCovered() {
        let covered = Set(Self.rejectionCases.flatMap(\.expected).map(\.code))
        let all: Set<String> = [
            "unknownNPC", "npcNotPresent", "npcDoesNotTrade", "emptyOffer", "negativeGold", "absurdGold",
            "unknownItem", "invalidQuantity", "absurdQuantity", "questItem", "untradeableItem", "npcLacksItem",
            "playerLacksItem", "npcNeverSells", "npcDoesNotSell", "npcDoesNotBuy", "playerCannotPay", "npcCannotPay",
            "priceOutsidePolicy",
        ]
        #expect(covered == all)
    }

    @Test func reportsEveryReasonAtOnceInDocumentedOrder() {
        // "Sell me two swords and the hammer for 1 gold, and I'll throw in my key and three daggers."
        let offer = TradeOffer(
            npc: "brannoc",
            playerGives: TradeSide(items: [ItemStack("old_key"), ItemStack("dagger", quantity: 3)], gold: 1),
            npcGives: TradeSide(items: [ItemStack("sword", quantity: 2), ItemStack("hammer")]))
        let verdict = rules.validate(offer, in: state)
        #expect(
            verdict.rejections == [
                .questItem(item: "old_key", party: .player),
                .playerLacksItem(item: "dagger", requested: 3, available: 2),
                .npcLacksItem(npc: "brannoc", item: "sword", requested: 2, available: 1),
                .npcNeverSells(npc: "brannoc", item: "hammer"),
                // minimum = 2 × 48 + 72 − (2 + 3 × 10) = 136; asking = 2 × 60 + 90 − 32 = 178; offered 1.
                .priceOutsidePolicy(npc: "brannoc", minimum: 136, asking: 178, offered: 1),
            ])
    }

    @Test func aNonTradingNPCStillReportsFacts() {
        let offer = TradeOffer(
            npc: "oona", playerGives: TradeSide(gold: 500), npcGives: TradeSide(items: [ItemStack("lantern")]))
        #expect(
            rules.validate(offer, in: state).rejections == [
                .npcDoesNotTrade(npc: "oona"),
                .npcLacksItem(npc: "oona", item: "lantern", requested: 1, available: 0),
                .playerCannotPay(gold: 500, available: 100),
            ])
    }

    @Test func linesOfTheSameItemAreAddedUp() {
        let offer = TradeOffer(
            npc: "brannoc", playerGives: TradeSide(gold: 100),
            npcGives: TradeSide(items: [ItemStack("lantern"), ItemStack("lantern"), ItemStack("lantern")]))
        #expect(
            rules.validate(offer, in: state).rejections == [
                .npcLacksItem(npc: "brannoc", item: "lantern", requested: 3, available: 2)
            ])
    }

    @Test func anUnknownItemIsReportedOncePerSide() {
        let offer = TradeOffer(
            npc: "brannoc", playerGives: TradeSide(gold: 10),
            npcGives: TradeSide(items: [ItemStack("ghost"), ItemStack("ghost", quantity: 2)]))
        #expect(rules.validate(offer, in: state).rejections == [.unknownItem(item: "ghost", party: .npc)])
    }

    // MARK: - Acceptance and prices

    @Test(arguments: [
        ("at the lowest price", TradeOffer.buying("sword", from: "brannoc", for: 48)),
        ("at the asking price", TradeOffer.buying("sword", from: "brannoc", for: 60)),
        ("paying more than asked", TradeOffer.buying("sword", from: "brannoc", for: 75)),
        ("selling at the buy-back price", TradeOffer.selling("dagger", to: "brannoc", for: 10)),
        ("selling two for less", TradeOffer.selling("dagger", quantity: 2, to: "brannoc", for: 15)),
        ("giving something away", TradeOffer.selling("dagger", to: "brannoc", for: 0)),
        (
            "barter with gold",
            TradeOffer(
                npc: "brannoc", playerGives: TradeSide(items: [ItemStack("dagger", quantity: 2)], gold: 28),
                npcGives: TradeSide(items: [ItemStack("sword")]))
        ),
    ])
    func accepts(_ label: String, _ offer: TradeOffer) {
        #expect(rules.validate(offer, in: state) == .accepted, "\(label)")
    }

    @Test func barterOneGoldShortIsRejected() {
        let offer = TradeOffer(
            npc: "brannoc", playerGives: TradeSide(items: [ItemStack("dagger", quantity: 2)], gold: 27),
            npcGives: TradeSide(items: [ItemStack("sword")]))
        #expect(
            rules.validate(offer, in: state).rejections == [
                .priceOutsidePolicy(npc: "brannoc", minimum: 28, asking: 40, offered: 27)
            ])
    }

    @Test(arguments: [
        // value, ratio in hundredths, rounded up, rounded down
        (10, 110, 11, 11), (7, 125, 9, 8), (7, 50, 4, 3), (1, 40, 1, 0), (0, 150, 0, 0), (200, 160, 320, 320),
        (3, 33, 1, 0),
    ])
    func pricesAreExactIntegers(value: Int, hundredths: Int, up: Int, down: Int) {
        let ratio = PriceRatio(hundredths: hundredths)
        #expect(ratio.appliedRoundingUp(to: value) == up)
        #expect(ratio.appliedRoundingDown(to: value) == down)
    }

    @Test(arguments: [(1.1, 110), (0.45, 45), (2.0, 200), (1.25, 125), (0.07, 7)])
    func ratiosReadExactly(_ value: Double, _ hundredths: Int) {
        #expect(PriceRatio(value)?.hundredths == hundredths)
    }

    @Test func ratiosWithMoreThanTwoDecimalsAreRefused() {
        #expect(PriceRatio(1.125) == nil)
        #expect(PriceRatio(.nan) == nil)
    }

    @Test func priceOfAnOfferIsAvailableWithoutValidating() {
        let price = rules.price(of: .buying("sword", from: "brannoc", for: 50), in: state.world)
        #expect(price == TradePrice(minimum: 48, asking: 60, offered: 50))
        #expect(rules.price(of: .buying("ghost", from: "brannoc", for: 50), in: state.world) == nil)
    }

    @Test func sentencesNameThingsAsThePlayerKnowsThem() {
        let world = state.world
        #expect(
            TradeRejection.priceOutsidePolicy(npc: "brannoc", minimum: 48, asking: 60, offered: 1).explanation(
                in: world)
                == "Brannoc asks 60 gold for this and accepts no less than 48; the offer pays 1 gold.")
        #expect(
            TradeRejection.priceOutsidePolicy(npc: "brannoc", minimum: -10, asking: -10, offered: -15).explanation(
                in: world)
                == "Brannoc pays at most 10 gold for this; the offer asks Brannoc to pay 15 gold.")
        #expect(
            TradeRejection.npcLacksItem(npc: "brannoc", item: "dagger", requested: 1, available: 0).explanation(
                in: world)
                == "Brannoc has no Dagger.")
        #expect(
            TradeRejection.questItem(item: "old_key", party: .player).explanation(in: world)
                == "Old Key is a quest item; it can never be bought or sold.")
    }

    @Test func rejectionsRoundTripThroughJSON() throws {
        let reasons = Self.rejectionCases.flatMap(\.expected)
        let data = try JSONEncoder().encode(reasons)
        #expect(try JSONDecoder().decode([TradeRejection].self, from: data) == reasons)
    }
}
