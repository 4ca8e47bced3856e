import GameWorld
import LanguageModels
import NPCContract
import Testing

@testable import ScriptedModel

/// The kinds of line the tenth blind set missed, each read by a rule that generalises, end to end against the
/// shipped pack (a `LanguageModelSession` with the engine's real tools), with the lines that must not be read so:
/// a name given in an introduction is said back, advice is no purchase, a trade word without its vowel is mended,
/// "…, wanna buy it?" sells, a question closed by a time word or "who am I?" recalls, several things ordered at once
/// get an offer for the first and the rest named, and a thing the player says they have is theirs to sell.
@Suite struct TenthSetKindsTests {
    @Test(arguments: [
        ("mira", "hi there, I'm Sorrel. just in off the north road", "Sorrel"),
        ("oona", "Good day. My name is Ilsa, up from the coast.", "Ilsa"),
        ("pip", "i'm Jory, new in town. you from round here?", "Jory"),
        ("brannoc", "Name's Corwin. Staying at the Goose.", "Corwin"),
    ])
    func aNameGivenInAnIntroductionIsSaidBack(npc: NPCID, line: String, name: String) async throws {
        let visit = try Packs.visit(npc)
        let turn = try await visit.session().turn(line)
        #expect(turn.reply.contains(name), "\(turn.reply)")
        #expect(turn.calls.isEmpty)
        #expect(visit.pending == nil)
    }

    @Test(arguments: [
        ("mira", "i'm starving, what have you got to eat?"), ("hesper", "I'm from Eastmarch, just passing"),
    ])
    func aLineGivingNoNameGetsNoAcknowledgement(npc: NPCID, line: String) async throws {
        let turn = try await Packs.visit(npc).session().turn(line)
        #expect(!turn.reply.contains("is it? Glad to know you"), "\(turn.reply)")
    }

    @Test(arguments: [
        "i'm going down the old mill cellar. what should i take with me?", "what do I need for the cellar?",
        "heading after that lost locket tomorrow, what should I bring along?",
    ])
    func askingWhatToTakeIsAdviceNotAPurchase(line: String) async throws {
        let visit = try Packs.visit("mira", gold: 30)
        let turn = try await visit.session().turn(line)
        #expect(turn.calls.isEmpty, "\(turn.calls)")
        #expect(turn.reply.contains("lantern"), "\(turn.reply)")
        #expect(visit.pending == nil)
    }

    @Test(arguments: [
        // A buy phrase after the question still buys; a direction after "get" goes somewhere.
        ("mira", "what should I take? oh, I'll take the rope", TradeOffer?.some(.buying("rope", from: "mira", for: 8))),
        ("hesper", "can I have a pie", .buying("meat_pie", from: "hesper", for: 6)),
        ("mira", "I need to get down into the mill cellar", nil),
    ])
    func aPurchaseIsStillAPurchaseAndAWayDownIsNone(npc: NPCID, line: String, offer: TradeOffer?) async throws {
        let visit = try Packs.visit(npc, gold: 30)
        let turn = try await visit.session().turn(line)
        #expect(visit.pending?.offer == offer, "\(turn.reply)")
    }

    @Test(arguments: [
        ("hesper", "can i gt a peice of chese", TradeOffer.buying("cheese_wedge", from: "hesper", for: 5)),
        ("mira", "sll me the rope pls", .buying("rope", from: "mira", for: 8)),
        ("pip", "cn i gt two trout", .buying("smoked_fish", quantity: 2, from: "pip", for: 8)),
    ])
    func anOrderWithATradeWordMissingItsVowelIsAnOrder(npc: NPCID, line: String, offer: TradeOffer) async throws {
        let visit = try Packs.visit(npc, gold: 30)
        let turn = try await visit.session().turn(line)
        #expect(visit.pending?.offer == offer, "\(turn.reply)")
    }

    @Test(arguments: [
        ("pip", "found this green old coin, wanna buy it?", TradeOffer.selling("old_coin", to: "pip", for: 6)),
        ("aurelio", "picked up a coin on the road, want to buy it?", .selling("old_coin", to: "aurelio", for: 7)),
    ])
    func aQuestionAfterWhatThePlayerFoundAsksTheNPCToBuyIt(npc: NPCID, line: String, offer: TradeOffer) async throws {
        let visit = try Packs.visit(npc, inventory: ["old_coin": 1])
        let turn = try await visit.session().turn(line)
        #expect(visit.pending?.offer == offer, "\(turn.reply)")
    }

    @Test func aQuestionClosedByATimeWordAsksAboutThePast() async throws {
        let visit = try Packs.visit("pip", gold: 20)
        let session = try visit.session()
        _ = try await session.turn("I want to buy a trout")
        _ = try await session.turn(try visit.acceptPending())
        let turn = try await session.turn("what'd i get off you just now?")
        // The built-in recall answers (what it remembers comes from the engine's facts, which a bare session lacks:
        // the eval corpus checks it end to end), not Pip's "You what?".
        #expect(turn.reply == "I don't recall anything like that.", "\(turn.reply)")
        #expect(turn.calls.isEmpty)
    }

    @Test func whatADContractionWouldFetchIsStillAskedAsAPrice() async throws {
        let visit = try Packs.visit("mira", inventory: ["leather_boots": 1])
        let turn = try await visit.session().turn("what'd I get for these boots before I go?")
        #expect(turn.reply.contains("7"), "\(turn.reply)")
        #expect(visit.pending == nil)
    }

    @Test func whoAmIAsksTheNameGivenButWhoAmISupposedToAskDoesNot() async throws {
        let visit = try Packs.visit("hesper")
        let session = try visit.session()
        _ = try await session.turn("my name is Tamsin")
        #expect(try await session.turn("who am I?").reply.contains("Tamsin"))
        #expect(try await session.turn("who am I again?").reply.contains("Tamsin"))
        let other = try await session.turn("who am I supposed to ask about the locket?")
        #expect(!other.reply.contains("Tamsin"), "\(other.reply)")
        let introduction = try await Packs.visit("oona").session().turn("who am I speaking with?")
        #expect(introduction.reply.contains("Oona"), "\(introduction.reply)")
    }

    @Test(arguments: [
        ("a pie and a mug of ale, please", TradeOffer.buying("meat_pie", from: "hesper", for: 6), "Mug of Ale"),
        ("two pies and an ale, please", .buying("meat_pie", quantity: 2, from: "hesper", for: 12), "Mug of Ale"),
        ("a loaf and three mugs of ale, love", .buying("bread", from: "hesper", for: 3), "Mug of Ale"),
    ])
    func severalThingsOrderedAtOnceGetAnOfferForTheFirstAndTheRestNamed(
        line: String, offer: TradeOffer, rest: String
    ) async throws {
        let visit = try Packs.visit("hesper", gold: 30)
        let turn = try await visit.session().turn(line)
        #expect(visit.pending?.offer == offer, "\(turn.reply)")
        #expect(turn.reply.contains(rest), "\(turn.reply)")
    }

    @Test(arguments: [
        ("I'll take the cloak, not the boots", TradeOffer.buying("wool_cloak", from: "mira", for: 19)),
        ("not the boots, the cloak please", .buying("wool_cloak", from: "mira", for: 19)),
        ("I'll have the rope instead of the lantern", .buying("rope", from: "mira", for: 8)),
    ])
    func aThingSaidAsUnwantedIsNeitherOfferedNorNamedAfter(line: String, offer: TradeOffer) async throws {
        let visit = try Packs.visit("mira", gold: 40)
        let turn = try await visit.session().turn(line)
        #expect(visit.pending?.offer == offer, "\(turn.reply)")
        #expect(!turn.reply.contains("after that"), "\(turn.reply)")
    }

    @Test(arguments: [
        ("I've got a compass, 10 gold", TradeOffer.selling("brass_compass", to: "aurelio", for: 10)),
        ("found a brass compass in the lane. 12 gold?", .selling("brass_compass", to: "aurelio", for: 12)),
    ])
    func aThingThePlayerSaysTheyHaveIsTheirsToSell(line: String, offer: TradeOffer) async throws {
        let visit = try Packs.visit("aurelio", inventory: ["brass_compass": 1])
        let turn = try await visit.session().turn(line)
        #expect(turn.calls.first?.hasPrefix("inspectPlayer") == true, "\(turn.calls)")
        #expect(visit.pending?.offer == offer, "\(turn.reply)")
    }

    @Test func sayingWhatThePlayerHasOrMayHaveSellsNothing() async throws {
        let visit = try Packs.visit("mira", gold: 30)
        let session = try visit.session()
        _ = try await session.turn("I have no idea what I'm doing here")
        #expect(visit.pending == nil)
        _ = try await session.turn("could I have the lantern for 25 gold?")
        #expect(visit.pending?.offer == .buying("lantern", from: "mira", for: 25))
    }
}
