import GameWorld
import Testing

@testable import ScriptedModel

/// The line parsers: words, numbers, items and intents, as tables, with the built-in English lexicon.
@Suite struct ParsingTests {
    /// The built-in English lexicon, prepared.
    let english = Vocabulary(.english)

    @Test(arguments: [
        ("I'll take Mira's lantern, 20g!", "i will take mira lantern 20 g"),
        ("What's that? Don't! Can't. Won't…", "what is that do not can not will not"),
        ("HELLO   there", "hello there"), ("twenty-five", "twenty five"), ("", ""), ("¡Olé! 🐟", "olé"),
        ("It\u{2019}s Pip\u{2019}s rod", "it is pip rod"), ("'quoted'", "quoted"),
    ])
    func wordsAreLowercasedWithContractionsSpelledOut(text: String, words: String) {
        #expect(Words(text).tokens.joined(separator: " ") == words)
    }

    @Test(arguments: [
        ("lanterns", "lantern", true), ("loaves", "loaf", true), ("berries", "berry", true), ("goods", "good", true),
        ("good", "goods", false), ("boxes", "box", true), ("glass", "glas", false), ("is", "i", false),
    ])
    func aLineWordMatchesThePhraseWordItIsThePluralOf(line: String, phrase: String, matches: Bool) {
        #expect(Words.word(line, matches: phrase) == matches)
    }

    @Test(arguments: [
        ("twenty", [20]), ("twenty five gold", [25]), ("a hundred and twenty", [120]), ("a dozen eggs", [12]),
        ("3 or 4", [3, 4]), ("one thousand two hundred", [1200]), ("no numbers here", []), ("a couple of", [2]),
        ("1234567890", []),
    ])
    func numbersInDigitsAndWords(text: String, values: [Int]) {
        #expect(SpokenNumber.all(in: Words(text), vocabulary: english).map(\.value) == values)
    }

    @Test func aNumberAfterOfTheThatNamesNothingPointsAtWhatWasListed() {
        #expect(SpokenNumber.all(in: Words("the cheaper of the two"), vocabulary: english).isEmpty)
        #expect(SpokenNumber.all(in: Words("the two"), vocabulary: english).map(\.value) == [2])
    }

    @Test func aGoldWordAfterANumberIsMoneyNotAnItem() throws {
        let resolver = try ItemResolver(world: Packs.shipped().world)
        #expect(resolver.bestItems(in: Words("3 coins for a trout")) == ["smoked_fish"])
        #expect(resolver.bestItems(in: Words("three coins for a trout")) == ["smoked_fish"])
        #expect(resolver.bestItems(in: Words("how much for the old coin")) == ["old_coin"])
    }

    @Test(arguments: [
        ("would you take 20", SpokenNumber.Role.price), ("20 gold?", .price), ("for 20", .price),
        ("make it 18", .price),
        ("i will give you 15", .price), ("two loaves", .quantity), ("3 of your candles", .quantity), ("7", .unmarked),
        ("ten for the lot", .price), ("here is 8 for it", .price), ("3 coins for a trout", .price),
        ("2 for my sister", .unmarked),
        // Followed by "of" and words the catalog does not know, a number still counts: "ya" is not an item.
        ("how much for one of ya trout", .quantity), ("i will give you 20 the lot", .price),
    ])
    func theWordsAroundANumberSayWhatItIs(text: String, role: SpokenNumber.Role) throws {
        let words = Words(text)
        let resolver = try ItemResolver(world: Packs.shipped().world)
        let starts = Set(resolver.mentions(in: words).map(\.range.lowerBound))
        #expect(SpokenNumber.all(in: words, itemStarts: starts, vocabulary: english).first?.role == role)
    }

    @Test(arguments: [
        ("the lantern", ["lantern"]), ("a brass lantern", ["lantern"]), ("lamp", ["lantern"]),
        ("two loaves", ["bread"]),
        ("loaf of bread", ["bread"]), ("some candles", ["candle"]),
        ("sword", ["rusty_sword", "short_sword", "silver_sword"]),
        ("silver", ["silver_sword"]), ("hello mira", []), ("the rusty sword and a lantern", ["rusty_sword"]),
        ("oil", ["lamp_oil"]), ("Moonpetal Locket", ["moonpetal_locket"]), ("the forge hammer", ["forge_hammer"]),
        ("hammer", ["hammer"]),
    ])
    func itemsAreFoundByIdNameAliasAndHeadWord(text: String, items: [String]) throws {
        let resolver = try ItemResolver(world: Packs.shipped().world)
        #expect(resolver.bestItems(in: Words(text)).map(\.rawValue) == items)
    }

    @Test(arguments: [
        ("how much is the unicorn horn?", "unicorn horn"), ("do you have any dragon eggs", "dragon eggs"),
        ("what about it", nil), ("sell my stuff", nil),
    ])
    func unknownThingsAreNamedByTheWordsAfterADeterminer(text: String, thing: String?) throws {
        let resolver = try ItemResolver(world: Packs.shipped().world)
        #expect(resolver.unknownThing(in: Words(text)) == thing)
    }

    @Test(arguments: [
        ("Hello there", DialogueIntent.greet), ("good morning!", .greet), ("bye for now", .farewell),
        ("thank you kindly", .thanks), ("what do you sell?", .askStock), ("show me your wares", .askStock),
        ("how much is the lantern", .askPrice), ("do you have rope?", .askPrice), ("lantern?", .askPrice),
        ("I'll take the lantern", .buy), ("give me two loaves", .buy), ("sell me a rope", .buy),
        ("I want to buy a cloak", .buy), ("I want to know about the mill", .unknown), ("3 candles", .buy),
        ("would you take 20?", .haggle), ("too expensive", .haggle), ("18 gold", .haggle),
        ("I'll take the lantern for 20", .haggle), ("sell my rusty sword", .sell), ("would you buy my boots?", .sell),
        ("what would you pay for this?", .sell), ("how much for my sword", .sell),
        ("here, take this bread", .offerGift),
        ("I found your locket", .offerGift), ("yes please", .yes), ("ok", .yes), ("no thanks", .no), ("nope", .no),
        ("who are you?", .introduce), ("any gossip?", .rumors), ("how are you?", .smallTalk), ("blorp", .unknown),
        ("", .unknown), ("can I have this?", .buy), ("what is my sword worth?", .sell), ("I need a lantern", .buy),
        ("I need a light for the cellar", .unknown), ("how about the hammer?", .askPrice), ("I want it", .buy),
        // Checked before yes: a yes with a question answers the question.
        ("go on, spill the gossip", .rumors), ("yes, and who are you?", .introduce),
        // A buy phrase after "what" with nothing named asks.
        ("what will you give me if I find it?", .unknown),
        ("how much did I pay you just now?", .recall), ("what did I just purchase from you?", .recall),
        ("what do you call me?", .recall), ("do you remember what I'm called?", .recall),
        ("afternoon", .greet), ("ta, good to know", .thanks), ("night then", .farewell),
        ("what are you pouring tonight?", .askStock), ("I brought back your locket", .offerGift),
        ("who am I talking to?", .introduce), ("what's the word on the street?", .rumors),
        ("found this coin, care to buy it?", .sell), ("what did I just pick up from you?", .recall),
        ("how many have I bought?", .recall), ("what was I just asking about?", .recall),
        ("I haven't eaten in two days", .unknown), ("two trout", .buy), ("I must take my leave", .farewell),
        ("what are you flogging?", .askStock), ("do you remember who I am?", .recall),
        ("110 and we shake on it", .haggle), ("ta, that'll do nicely", .thanks),
        ("what do they call you round here?", .introduce), ("which item was I asking about?", .recall),
        ("what was it I just bought off you?", .recall), ("100 and no more", .haggle),
        ("how much did you pay me for that sword again?", .recall), ("can you knock a bit off?", .haggle),
        ("pour me a glass of wine, would you?", .buy), ("got something for you", .offerGift),
    ])
    func intentsByPriority(text: String, intent: DialogueIntent) throws {
        let words = Words(text)
        let resolver = try ItemResolver(world: Packs.shipped().world)
        let mentions = resolver.mentions(in: words)
        var clues = IntentDetector.Clues()
        clues.numbers = SpokenNumber.all(
            in: words, itemStarts: Set(mentions.map(\.range.lowerBound)), vocabulary: english)
        clues.itemStart = mentions.first?.range.lowerBound
        clues.itemEnd = mentions.first?.range.upperBound
        clues.saysPronoun = words.tokens.contains("this") || words.tokens.contains("it")
        clues.namesSomething = !mentions.isEmpty || clues.saysPronoun
        #expect(IntentDetector.intent(of: words, clues: clues, vocabulary: english) == intent)
    }

    // MARK: - The lexicon decides

    /// The intent of a line with a lexicon, naming no item.
    func intent(of text: String, with lexicon: Lexicon) -> DialogueIntent {
        let vocabulary = Vocabulary(lexicon)
        let words = vocabulary.line(text)
        var clues = IntentDetector.Clues()
        clues.numbers = SpokenNumber.all(in: words, vocabulary: vocabulary)
        return IntentDetector.intent(of: words, clues: clues, vocabulary: vocabulary)
    }

    @Test func aPhraseAddedToTheLexiconIsUnderstood() {
        #expect(intent(of: "anything on your stall?", with: .english) == .unknown)
        var lexicon = Lexicon.english
        lexicon.phrases[.stock, default: []].append("on your stall")
        #expect(intent(of: "anything on your stall?", with: lexicon) == .askStock)
    }

    @Test func thePriorityIsTheLexiconsOrderAndALeftOutCheckIsNeverMade() {
        // "hello and goodbye": farewell comes before greet in English.
        #expect(intent(of: "hello and goodbye", with: .english) == .farewell)
        var lexicon = Lexicon.english
        lexicon.priority.removeAll { $0 == .greet }
        lexicon.priority.insert(.greet, at: 0)
        #expect(intent(of: "hello and goodbye", with: lexicon) == .greet)
        lexicon.priority.removeAll { $0 == .greet || $0 == .farewell }
        #expect(intent(of: "hello and goodbye", with: lexicon) == .unknown)
    }

    @Test func synonymsAreReadBeforeAnythingElse() {
        #expect(Vocabulary(.english).line("wanna buy, pls").tokens == ["want", "to", "buy", "please"])
        var lexicon = Lexicon.english
        lexicon.synonyms["farewell"] = "hello"
        #expect(intent(of: "farewell", with: lexicon) == .greet)
    }

    @Test func aSynonymMayBeAPhraseAndTheLongestWins() {
        var lexicon = Lexicon.english
        lexicon.synonyms["to by"] = "to buy"
        lexicon.synonyms["to by the way"] = "to say"
        let vocabulary = Vocabulary(lexicon)
        #expect(vocabulary.line("I'd like to by the rope").tokens == ["i", "would", "like", "to", "buy", "the", "rope"])
        #expect(vocabulary.line("to by the way").tokens == ["to", "say"])
        // Only the whole phrase is read as another: "by" alone stays.
        #expect(vocabulary.line("stand by the door").tokens == ["stand", "by", "the", "door"])
        #expect(intent(of: "I'd like to by the rope", with: lexicon) == .buy)
    }

    @Test func numberWordsAndAmountsComeFromTheLexicon() {
        var lexicon = Lexicon.english
        lexicon.numbers.amounts.append(Lexicon.Amount(phrase: "a fiver", value: 5, isGold: true))
        lexicon.numbers.words["score"] = 20
        let vocabulary = Vocabulary(lexicon)
        let fiver = SpokenNumber.all(in: Words("a fiver for the rope"), vocabulary: vocabulary)
        #expect(fiver.map(\.value) == [5])
        #expect(fiver.first?.role == .price)
        #expect(SpokenNumber.all(in: Words("a score"), vocabulary: vocabulary).map(\.value) == [20])
        #expect(SpokenNumber.all(in: Words("a score"), vocabulary: english).map(\.value) == [])
        var small = Lexicon.english
        small.limits.shortLine = 0
        // "later" is a farewell only in a line of at most `shortLine` words.
        #expect(intent(of: "later", with: .english) == .farewell)
        #expect(intent(of: "later", with: small) == .unknown)
    }
}
