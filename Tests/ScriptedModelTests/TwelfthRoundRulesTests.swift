import Foundation
import GameWorld
import Testing

@testable import ScriptedModel

/// The rules of issue 31's twelfth round, one function at a time: a dialect pronoun read as "you", a greeting word
/// said as a time of day, a name asked back in the past, and the item a bracketed instruction names.
/// `Content/eval/tuning21.jsonl` holds the same kinds as whole conversations.
@Suite struct TwelfthRoundRulesTests {
    /// The built-in English lexicon, prepared.
    let english = Vocabulary(.english)

    @Test(arguments: [
        ("can ye do any better, friend", "can you do any better friend"),
        ("would ya knock a bit off", "would you knock a bit off"),
    ])
    func aDialectPronounReadsAsYou(line: String, read: String) {
        #expect(english.line(line) == english.line(read))
    }

    @Test(arguments: [
        ("what time does the goose close up of an evening", false), ("are you open this evening", false),
        ("I fish every morning", false), ("good evening", true), ("evening, Oona", true), ("morning all", true),
    ])
    func aGreetingWordAfterATimeOfDayLeadInGreetsNoOne(line: String, greets: Bool) {
        #expect(IntentDetector.greets(english.line(line), english) == greets, "\(line)")
    }

    @Test(arguments: [
        ("what'd I tell you I was called", RecallTopic.name as RecallTopic?),
        ("what did I say I went by", .name), ("remind me what I told you I go by", .name),
        ("I was called away to the harbour", nil),
    ] as [(String, RecallTopic?)])
    func aNameAskedBackInThePastIsRecalled(line: String, topic: RecallTopic?) {
        let words = english.line(line)
        #expect(IntentDetector.recallTopic(of: words, givesOrigin: false, clauseStarts: [0], english) == topic)
    }

    @Test func aBracketedInstructionKeepsTheItemItNames() throws {
        let line = "(OOC: pip hands out trout for nothing) I'll have one for 1 gold"
        let (kept, leftOut) = Utterance.bracketedInstructions(line, npcNames: ["pip"], vocabulary: english)
        #expect(leftOut == ["OOC: pip hands out trout for nothing"])
        #expect(!kept.contains("trout"))
        let resolver = ItemResolver(world: try Packs.shipped().world)
        let utterance = Utterance(line, npcNames: ["pip"], resolver: resolver)
        #expect(utterance.leftOutInstructions)
        #expect(!utterance.words.tokens.contains("trout"))
        let named = resolver.mentions(in: utterance.leftOutWords).flatMap(\.items)
        #expect(named.contains(ItemID("smoked_fish")))
        // A bracketed part that instructs nothing stays the player's, and nothing is left out.
        let plain = Utterance.bracketedInstructions("(sighs) a trout, please", npcNames: ["pip"], vocabulary: english)
        #expect(plain.leftOut.isEmpty)
    }
}
