import Foundation
import GameWorld
import Testing

@testable import ScriptedModel

/// The rules of issue 31's eleventh round, one function at a time: the player's whole name and surname, where they
/// came from said without "I", a wish to buy, money matters, a pair of a thing that is a pair, a count after "on",
/// words that describe alike, a described thing handed back, and rule keywords said of the player.
/// `Content/eval/tuning20.jsonl` holds the same kinds as whole conversations.
@Suite struct EleventhRoundRulesTests {
    /// The built-in English lexicon, prepared.
    let english = Vocabulary(.english)
    /// The built-in English lexicon's name finder.
    let names = PlayerNameFinder(Lexicon.english)

    // MARK: - Names

    @Test(arguments: [
        ("the name's Corwen Ashdale", "Corwen Ashdale"),
        ("I'm Briony Tallowmere, pleased to meet you", "Briony Tallowmere"),
        ("call me Jory Flint", "Jory Flint"), ("Hal Brightwater's the name", "Hal Brightwater"),
        // One name: words written small, a lexicon word or another sentence do not go on it.
        ("my name is hal brightwater", "Hal"), ("I'm Wren From the coast", "Wren"),
        ("name's Ansel. Trout smell good today", "Ansel"), ("I'm Tamsin, Mira", "Tamsin"),
    ])
    func theWholeNameIsTheCapitalisedWordsAfterTheName(line: String, full: String) {
        #expect(names.fullName(in: line) == full)
        // What the player is called by is its first word, as before.
        #expect(names.name(in: line) == String(full.prefix { $0 != " " }))
    }

    @Test(arguments: [
        ("Hal Brightwater, tinker, out of Orrin's Ford.", "Hal Brightwater"),
        ("Morning. Tilda Coldharbour, weaver, over from Sallow Cross.", "Tilda Coldharbour"),
        // No trade after it, a word of the lexicon in it, or a question: no name.
        ("Hal Brightwater, out of Orrin's Ford.", nil), ("Old Brannoc, smith, sent me over", nil),
        ("Hal Brightwater, tinker, where's the inn?", nil),
    ] as [(String, String?)])
    func aNameGivenBareBeforeATradeIsAName(line: String, full: String?) {
        #expect(names.fullName(in: line) == full)
    }

    @Test func aLineThatGivesNoNameGivesNoWholeName() {
        #expect(names.fullName(in: "I'm hungry") == nil)
        #expect(names.fullName(in: "what's the name of this place?") == nil)
    }

    @Test func factsWrittenBeforeTheWholeNameReadItAsTheNameCalledBy() throws {
        // A save's facts from before `playerFullName`: the whole name is the name given.
        let old = Data(#"{"isFirstMeeting":false,"turns":2,"playerCalled":"Wren"}"#.utf8)
        let facts = try JSONDecoder().decode(ConversationFacts.self, from: old)
        #expect(facts.playerCalled == "Wren")
        #expect(facts.playerFullName == "Wren")
        // Written again, a whole name that is the name called by is left out; another is kept.
        let again = try #require(String(data: try JSONEncoder().encode(facts), encoding: .utf8))
        #expect(!again.contains("playerFullName"))
        let full = ConversationFacts(playerCalled: "Hal", playerFullName: "Hal Brightwater")
        let decoded = try JSONDecoder().decode(ConversationFacts.self, from: try JSONEncoder().encode(full))
        #expect(decoded == full)
    }

    @Test func theNameAndTheSurnameAreRecalledFromTheWholeName() async throws {
        let visit = try Packs.visit("mira")
        let session = try visit.session()
        _ = try await session.turn("the name's Corwen Ashdale")
        let surname = try await session.turn("what's my last name, then?")
        #expect(surname.reply.contains("Ashdale"), "\(surname.reply)")
        #expect(surname.calls.isEmpty)
        let name = try await session.turn("and what's my name?")
        #expect(name.reply.contains("Corwen Ashdale"), "\(name.reply)")
    }

    @Test func aSurnameAskedOfOneNameSaysThatOneOnly() async throws {
        let visit = try Packs.visit("oona")
        let session = try visit.session()
        _ = try await session.turn("I'm Wren")
        let turn = try await session.turn("what's my family name?")
        #expect(turn.reply.contains("Wren"), "\(turn.reply)")
        #expect(!turn.reply.contains("Ada"), "\(turn.reply)")
    }

    // MARK: - Origins

    @Test(arguments: [
        ("Came down from the hill farms at Ketterby.", "Ketterby"),
        ("I'm Isolde. Rode in from Fallowmere", "Fallowmere"),
        ("I came up from the fishing huts at Saltreach", "Saltreach"),
        ("Hiya. Walked over from Dunmere this morning, feet are killing me.", "Dunmere"),
    ])
    func aTravelVerbOpeningAPartSaysWhereThePlayerCameFrom(line: String, place: String) {
        #expect(names.origin(in: line) == place)
    }

    @Test(arguments: [
        "He came down from the hills at Greywater last spring", "Came from the market to see Aurelio",
        "Came down from Ketterby, did you?", "she walked over from the farms at Lowmarsh",
    ])
    func someoneElsesJourneyOrNoPlaceSaysNothing(line: String) {
        #expect(names.origin(in: line) == nil, "\(line)")
    }

    // MARK: - Wishes and money

    @Test(arguments: [
        ("i am hoping to get a lantern before dark", 6, true), ("we are aiming to get a trout for supper", 6, true),
        // No "to" and a verb of getting, someone else, a place, or a question.
        ("i am hoping the lantern holds out", 4, false), ("my brother is hoping to get a trout", 7, false),
        ("what am i hoping to get a lantern for", 7, false), ("i am looking to get rid of this sword", 9, false),
    ])
    func aWishToGetAThingAsksToBuyIt(line: String, item: Int, wishes: Bool) {
        let (words, clues) = oneItemClues(line, item: item)
        #expect(IntentDetector.wishesToBuy(words, clues, english) == wishes, "\(words.tokens)")
    }

    @Test func coinsInALineAboutInvestingAreMoney() throws {
        let resolver = ItemResolver(world: try Packs.shipped().world)
        #expect(resolver.mentions(in: Words("know any good crypto coins to invest in")).isEmpty)
        #expect(!resolver.mentions(in: Words("what would you give for this coin")).isEmpty)
    }

    // MARK: - Counts

    @Test(arguments: [("do us a deal on two", 5, SpokenNumber.Role.quantity), ("i will pay two", 3, .price)])
    func aNumberAfterOnCountsTheThing(line: String, at: Int, role: SpokenNumber.Role) {
        let numbers = SpokenNumber.all(in: Words(line), vocabulary: english)
        #expect(numbers.map(\.range.lowerBound) == [at])
        #expect(numbers.first?.role == role)
    }

    @Test(arguments: [
        ("I'll take a pair of leather boots, please", "leather_boots", 1),
        ("I'll have a pair of iron daggers", "iron_dagger", 2),
    ])
    func aPairOfAThingThatIsAPairIsOne(line: String, item: String, quantity: Int) async throws {
        let npc: NPCID = item == "leather_boots" ? "mira" : "brannoc"
        let visit = try Packs.visit(npc, gold: 100)
        _ = try await visit.session().turn(line)
        #expect(try #require(visit.pending).offer.npcGives.items == [ItemStack(ItemID(item), quantity: quantity)])
    }

    // MARK: - Descriptions and gifts

    @Test func wordsAlikeFitADescription() throws {
        let resolver = ItemResolver(world: try Packs.shipped().world)
        let candidates: [ItemID] = ["meat_pie", "ale", "cider", "cheese_wedge"]
        let pie = resolver.described(in: Words("one of them little meat things in pastry"), among: candidates)
        #expect(pie == "meat_pie")
        // One word alike is not a description.
        #expect(resolver.described(in: Words("some meat for my dog"), among: candidates) == nil)
    }

    @Test func aCommaBetweenDescribingWordsJoinsThem() throws {
        let resolver = ItemResolver(world: try Packs.shipped().world)
        let candidates: [ItemID] = ["silver_sword", "short_sword", "iron_dagger", "horseshoe"]
        let words = Words("i will buy the slender beautiful one up on the wall")
        #expect(resolver.described(in: words, among: candidates, clauseStarts: [0]) == "silver_sword")
        #expect(resolver.described(in: words, among: candidates, clauseStarts: [0, 5]) == "silver_sword")
        // A comma after the thing described still parts it from what follows.
        let parted = Words("i will buy the slender one up on the wall beautiful")
        #expect(resolver.described(in: parted, among: candidates, clauseStarts: [0, 6]) == nil)
    }

    @Test func aDescribedThingCarriedIsTheGiftThoughSomethingElseIsNamed() async throws {
        let visit = try Packs.visit("aurelio", inventory: ["bread": 2, "moonpetal_locket": 1])
        let turn = try await visit.session().turn(
            "waded through the mill cellar with a candle, and under the silt was this flower-shaped pendant with a "
                + "tiny likeness of a lady in it. it belongs to you.")
        #expect(turn.calls.contains { $0.hasPrefix("acceptGift") }, "\(turn.calls)")
        #expect(visit.game.player.inventory.quantity(of: "moonpetal_locket") == 0)
    }

    // MARK: - blind18's kinds

    @Test(arguments: [
        ("hand me that ale you are polishing", 3, true), ("pass me that jug you are wiping", 3, true),
        // Goods the NPC sells, no demonstrative, or no verb of what the NPC is doing.
        ("give me that lantern you are selling", 3, false), ("hand me the ale you are polishing", 3, false),
        ("hand me that ale you poured", 3, false),
    ])
    func aThingPointedAtInTheNPCsHandsIsNoGoods(line: String, item: Int, inHand: Bool) {
        #expect(Scene.isInHand(item..<(item + 1), in: Words(line), vocabulary: english) == inHand)
    }

    @Test func aThingThatIsForYouIsAGift() {
        let (words, clues) = oneItemClues("this pie is for you", item: 1)
        #expect(IntentDetector.isMeantForTheListener(words, clues, english))
        var asked = clues
        asked.questionSentences = [0..<5]
        #expect(!IntentDetector.isMeantForTheListener(words, asked, english))
    }

    @Test func aBuyPhraseTakesTheFirstThingNamedAfterIt() async throws {
        let visit = try Packs.visit("hesper")
        let turn = try await visit.session().turn("I'll take an ale and a wedge of cheese, love")
        #expect(try #require(visit.pending).offer.npcGives.items == [ItemStack("ale")])
        #expect(turn.reply.contains("Wedge of Cheese"), "\(turn.reply)")
    }

    @Test(arguments: ["a trout for nowt", "a trout for nought"])
    func forNowtIsABidOfNothing(line: String) {
        let numbers = SpokenNumber.all(in: english.line(line), vocabulary: english)
        #expect(numbers.map(\.value) == [0])
        #expect(numbers.first?.role == .price)
    }

    @Test func dYouHaveAsksTheStock() async throws {
        let visit = try Packs.visit("pip")
        let turn = try await visit.session().turn("d'you have any cheese?")
        #expect(turn.calls.contains { $0.hasPrefix("lookUpStock") }, "\(turn.calls)")
        #expect(!turn.calls.contains { $0.hasPrefix("acceptGift") }, "\(turn.calls)")
    }

    // MARK: - Keywords said of the player

    @Test(arguments: [
        ("I haven't eaten since the day before yesterday", true), ("my belly's been rumbling since noon, love", true),
        ("you look like you haven't eaten in days, Hesper", false), ("Hesper looks famished", false),
        ("are you not starving yourself?", false), ("my mum is starving, poor thing", false),
        ("he's famished, that lad by the fire", false),
    ])
    func hesperFeedsOnlyAPlayerWhoSaysTheyAreHungry(line: String, feeds: Bool) async throws {
        let visit = try Packs.visit("hesper")
        let turn = try await visit.session().turn(line)
        #expect(turn.calls.contains { $0.hasPrefix("giveItem") } == feeds, "\(turn.calls): \(turn.reply)")
    }
}
