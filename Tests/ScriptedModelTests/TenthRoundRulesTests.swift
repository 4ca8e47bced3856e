import GameWorld
import Testing

@testable import ScriptedModel

/// The rules of issue 31's tenth round (the kinds blind17 missed), one function at a time: a price asked after a
/// greeting, what a purchase cost and what the player is called asked back in new forms, who the NPC is asked with a
/// word set in, a thing handed over "for you", and what the NPC has to sell. `Content/eval/tuning19.jsonl` holds the
/// same kinds as whole conversations.
@Suite struct TenthRoundRulesTests {
    /// The built-in English lexicon, prepared.
    let english = Vocabulary(.english)

    @Test(arguments: [
        // The part that names the item opens with an inquiry word, though a greeting opens the line.
        ("good morning to you what is a horseshoe running these days", 7, [0, 4], true),
        ("hiya what are you letting the trout go at", 6, [0, 1], true),
        ("what is an iron dagger running", 4, [0], true),
        // No part opens with a question: a statement.
        ("good morning to you i saw a horseshoe running", 7, [0, 4], false),
        ("morning the horseshoe running is loose", 2, [0, 1], false),
    ] as [(String, Int, Set<Int>, Bool)])
    func aCostVerbAsksThePriceInAPartThatOpensWithAQuestion(line: String, item: Int, clauses: Set<Int>, asks: Bool) {
        let (words, clues) = oneItemClues(line, item: item, clauses: clauses)
        #expect(IntentDetector.asksCostWithVerb(words, clues, english) == asks, "\(words.tokens)")
    }

    @Test(arguments: [
        ("remind me what that candle cost me", true), ("tell me again how much the cider set me back", true),
        ("how much did that ale cost me", true),
        // A price asked, not what was paid.
        ("remind me how much you charge for lamp oil", false), ("how much will the candle cost me", false),
        ("remind me to buy a candle", false),
    ])
    func aRecallLeadInAsksBackWhatAThingCost(line: String, asks: Bool) {
        #expect(IntentDetector.asksWhatItCost(Words(line), clauseStarts: [0], english) == asks)
    }

    @Test(arguments: [
        ("what do the townsfolk call me then", [0, 6], true), ("so what does everybody call me round here", [0], true),
        ("what do folk call me", [0], true),
        // Something else called, or too much said after it.
        ("what do they call this square", [0], false), ("call me wren", [0], false),
        ("what would you call me if i bought the lot and left", [0], false),
    ] as [(String, Set<Int>, Bool)])
    func aCallVerbBeforeMeAsksWhatThePlayerIsCalled(line: String, clauses: Set<Int>, asks: Bool) {
        #expect(IntentDetector.asksWhatPlayerIsCalled(Words(line), clauseStarts: clauses, english) == asks)
    }

    @Test func askingWhatThePlayerIsCalledIsRecallThoughItHoldsCallMe() {
        let words = Words("what do the townsfolk call me then")
        #expect(IntentDetector.recallTopic(of: words, givesOrigin: false, clauseStarts: [0, 6], english) == .name)
        // "Call me Wren" gives the name and asks nothing.
        #expect(IntentDetector.recallTopic(of: Words("call me wren"), givesOrigin: false, clauseStarts: [0], english) == nil)
    }

    @Test(arguments: [
        ("who on earth are you", [0], true), ("who are you exactly", [0], true),
        ("and who precisely might you be", [0], true), ("who exactly are you sir", [0], true),
        // More said after "you", or "you" is no subject.
        ("who else are you expecting in tonight", [0], false), ("who sold you that lantern", [0], false),
        ("i wonder who you are", [0], false),
    ] as [(String, Set<Int>, Bool)])
    func whoThenACopulaAndYouAsksWhoTheNPCIs(line: String, clauses: Set<Int>, asks: Bool) {
        let (words, clues) = oneItemClues(line, item: nil, clauses: clauses)
        #expect(IntentDetector.asksWhoTheListenerIs(words, clues, english) == asks, "\(words.tokens)")
    }

    @Test(arguments: [
        ("an apple for you keep your strength up", 1, [0, 4], [], true),
        ("one apple for you", 1, [0], [], true),
        // More after "you" in its part, a subject before the thing, or a question.
        ("an apple for you and one for me", 1, [0], [], false), ("i got an apple for you", 3, [0], [], false),
        ("a pie for you", 1, [0], [0..<4], false),
    ] as [(String, Int, Set<Int>, [Range<Int>], Bool)])
    func aThingForYouIsMeantForTheNPC(
        line: String, item: Int, clauses: Set<Int>, questions: [Range<Int>], gives: Bool
    ) {
        var (words, clues) = oneItemClues(line, item: item, clauses: clauses)
        clues.questionSentences = questions
        #expect(IntentDetector.isMeantForTheListener(words, clues, english) == gives, "\(words.tokens)")
    }

    @Test(arguments: [
        ("what have you got left to sell today", 6, true), ("anything else you are looking to sell", 6, true),
        // The player sells.
        ("i have got a rusty sword to sell", 7, false), ("would you like me to sell it to you", 5, false),
        ("you should sell me a pie", 2, false),
    ])
    func toSellAfterYouIsWhatTheNPCHasToSell(line: String, index: Int, npcSells: Bool) {
        let (words, clues) = oneItemClues(line, item: nil)
        #expect(words.tokens[index] == "sell")
        #expect(IntentDetector.hasToSell(at: index, in: words, clues, english) == npcSells)
    }

    @Test func thanksOpeningALineInAPartOfItsOwnIsThanks() {
        let (words, split) = oneItemClues("ta ever so that was a lovely pie", item: 7, clauses: [0, 3])
        #expect(IntentDetector.intent(of: words, clues: split, vocabulary: english) == .thanks)
        // The same words with no part of their own: not read as thanks for that reason.
        let (long, longClues) = oneItemClues("ta ever so that was a lovely pie", item: 7, clauses: [0])
        #expect(IntentDetector.intent(of: long, clues: longClues, vocabulary: english) != .thanks)
    }
}

/// The tenth round's rules for stock asked without naming a thing: goods on show, and the rest besides a thing named.
@Suite struct TenthRoundStockTests {
    /// The built-in English lexicon, prepared.
    let english = Vocabulary(.english)

    @Test(arguments: [
        ("what is all that you have got hung up along the back wall", [0], true),
        ("so what is this lot spread out on your crate then", [0], true),
        ("what is all this you have got laid out under the awning then", [0, 12], true),
        // Something said, or a place, not goods.
        ("what is that you said about the mill", [0], false), ("what is this place called", [0], false),
        ("that lot spread out on your crate is lovely", [0], false),
    ] as [(String, Set<Int>, Bool)])
    func whatIsThisLaidOutAsksWhatTheNPCHas(line: String, clauses: Set<Int>, asks: Bool) {
        let words = Words(line)
        var clues = IntentDetector.Clues()
        clues.clauseStarts = clauses
        #expect(IntentDetector.asksWhatIsLaidOut(words, clues, english) == asks, "\(words.tokens)")
    }

    @Test(arguments: [
        ("anything to eat apart from the trout", 5, true, DialogueIntent.askStock),
        ("got owt to drink besides the cider", 6, true, .askStock),
    ] as [(String, Int, Bool, DialogueIntent)])
    func aQuestionBesidesAThingNamedAsksForTheRest(line: String, item: Int, question: Bool, intent: DialogueIntent) {
        var (words, clues) = oneItemClues(line, item: item, isQuestion: question)
        #expect(IntentDetector.intent(of: words, clues: clues, vocabulary: english) == intent, "\(words.tokens)")
        // Not asked, it asks nothing of the rest.
        clues.isQuestion = false
        #expect(IntentDetector.intent(of: words, clues: clues, vocabulary: english) != .askStock)
    }

    @Test(arguments: [
        ("anything to drink that is not ale", 6, true), ("blades that are not the silver sword", 5, true),
        // A question about the thing itself, or no copula.
        ("is that not ale", 3, false), ("not ale", 1, false), ("that is ale", 2, false),
    ])
    func aThingAfterThatIsNotIsExcluded(line: String, item: Int, excluded: Bool) {
        #expect(IntentDetector.isExcluded(at: item, in: Words(line), english) == excluded)
    }
}
