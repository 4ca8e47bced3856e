import GameWorld
import Testing

@testable import ScriptedModel

/// The rules behind `TenthSetKindsTests`, one function at a time: reading what the player has, what they do not
/// want, the words the typo mender gives a trade word back its vowel, and the sentences a reply gains.
@Suite struct TenthSetRulesTests {
    /// The built-in English lexicon, prepared.
    let english = Vocabulary(.english)

    @Test(arguments: [
        ("i have got a compass", 4, true), ("found this green old coin", 3, true), ("i have a compass", 3, true),
        ("i have 2 old coins", 4, true),
        // After a subjects word, a request; too many words between, something else.
        ("can i have a pie", 4, false), ("could i have the compass", 4, false),
        ("i have no idea what the lantern", 6, false), ("i have 20 gold for the lantern", 6, false),
        ("where did you find the lantern", 5, false),
    ])
    func aHavingPhraseRightBeforeTheThingMakesItThePlayers(line: String, itemStart: Int, has: Bool) {
        #expect(Scene.saysHaving(before: itemStart, in: Words(line), vocabulary: english) == has)
    }

    @Test(arguments: [
        ("i will take the cloak not the boots", 7, true), ("the rope instead of the lantern", 5, true),
        ("anything besides the owl", 3, true), ("a pie and an ale", 4, false), ("not today the rope", 3, false),
        ("the rope", 1, false),
    ])
    func aThingAfterANegationOrABesidesPhraseIsUnwanted(line: String, start: Int, unwanted: Bool) {
        #expect(Scene.isUnwanted(at: start, in: Words(line), vocabulary: english) == unwanted)
    }

    @Test(arguments: [
        ("can i gt a trout", "can i get a trout"), ("sll me the rope", "sell me the rope"),
        ("i wnt a pie", "i want a pie"),
        // Words without a vowel that are no trade word's slip, or a slip of several, stay.
        ("hmm brb", "hmm brb"), ("mr finch", "mr finch"), ("nvm", "nvm"),
    ])
    func aShortTradeWordMissingItsVowelIsMended(line: String, mended: String) throws {
        let resolver = ItemResolver(world: try Packs.shipped().world)
        #expect(resolver.line(line).tokens.joined(separator: " ") == mended)
    }

    @Test(arguments: [
        ("Tamsin", "Mira Quickcoin, friend!", "Tamsin, is it? Glad to know you. Mira Quickcoin, friend!"),
        ("Dax", "Goodbye, Dax.", "Goodbye, Dax."), (nil, "Hello.", "Hello."),
    ])
    func aNameGivenIsSaidBackUnlessTheReplySaysIt(name: String?, reply: String, said: String) {
        #expect(ScriptedModel.acknowledgingName(name, in: reply, lexicon: .english) == said)
    }

    @Test func theGermanAcknowledgementIsTheGermanLexicons() {
        #expect(
            ScriptedModel.acknowledgingName("Jana", in: "Hallo.", lexicon: .german)
                == "Jana, sagst du? Freut mich. Hallo.")
    }

    @Test func theRestOfAnOrderIsNamedOnlyAfterAnOfferForPartOfIt() throws {
        let world = try Packs.shipped().world
        let ordered: [ItemID] = ["meat_pie", "ale", "bread"]
        #expect(
            ScriptedModel.sayingTheRest(of: ordered, in: "Say accept.", offered: "meat_pie", world: world)
                == "Say accept. Then the Mug of Ale and Loaf of Bread after that, if you still want it.")
        // No offer (the player cannot pay), an offer for something else, or one thing ordered: nothing added.
        #expect(ScriptedModel.sayingTheRest(of: ordered, in: "6 gold.", offered: nil, world: world) == "6 gold.")
        #expect(
            ScriptedModel.sayingTheRest(of: ordered, in: "Say accept.", offered: "cider", world: world) == "Say accept."
        )
        #expect(
            ScriptedModel.sayingTheRest(of: ["ale"], in: "Say accept.", offered: "ale", world: world) == "Say accept.")
    }
}
