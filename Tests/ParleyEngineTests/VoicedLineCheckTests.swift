import GameWorld
import Testing

@testable import ParleyEngine

/// The check of a voiced line against the planned one: every fact kept, none added, the same yes or no.
@Suite struct VoicedLineCheckTests {
    static let planned =
        "For you, friend, the Brass Lantern is 25 gold. Well, that's what I'm asking. Asking's not getting, is it?"

    func check(
        _ voiced: String, planned: String = planned, player: String = "how much is the lantern?", budget: Int = 3
    ) throws -> VoicedLineCheck.Result {
        let world = try shippedPack().world
        return VoicedLineCheck(vocabulary: ClaimVocabulary(world: world), sentenceBudget: budget)
            .check(
                voiced, planned: planned, playerLine: player, speaker: "Mira Quickcoin", sources: "a cheerful trader")
    }

    @Test func aLineThatKeepsEveryFactPasses() throws {
        let result = try check("The lantern? 25 gold, friend, and worth every coin.")
        #expect(result.problems == [])
        #expect(result.line == "The lantern? 25 gold, friend, and worth every coin.")
    }

    @Test func aDroppedOrChangedPriceIsRefused() throws {
        #expect(try check("The Brass Lantern is a fine thing, friend.").problems.contains("it drops the number 25"))
        let changed = try check("The Brass Lantern is 20 gold, friend.").problems
        #expect(changed.contains("it drops the number 25"))
        #expect(changed.contains("it adds the number 20"))
    }

    @Test func aNumberThePlayerSaidMayBeRepeated() throws {
        let result = try check(
            "You offer 15? The Brass Lantern is 25 gold.", player: "would you take 15 for the lantern?")
        #expect(result.problems == [])
    }

    @Test func anItemTheLineDidNotNameIsRefused() throws {
        let problems = try check("The Brass Lantern is 25 gold, and the Wool Cloak is yours too.").problems
        #expect(problems.contains { $0.hasPrefix("it names the item wool_cloak") })
    }

    @Test func aDroppedItemIsRefused() throws {
        #expect(try check("That one is 25 gold.").problems.contains("it drops the item lantern"))
    }

    @Test func yesAndNoMustMatchWhereFactsAreStated() throws {
        let planned = "I don't sell the Brass Lantern."
        #expect(
            try check("The Brass Lantern? Happily sold!", planned: planned).problems.contains {
                $0.contains("no")
            })
        let agreed = try check("The Brass Lantern? No, I do not sell it.", planned: planned).problems
        #expect(agreed == [], "\(agreed)")
        // A sentence of small talk may say no when the facts say yes: "Asking's not getting".
        #expect(try check("The lantern is 25 gold. Asking isn't getting!").problems == [])
    }

    @Test func aLineWithoutFactsKeepsItsNo() throws {
        let planned = "I have never heard of a dragon egg."
        #expect(
            try check("A dragon egg? Lovely, lovely.", planned: planned, player: "got a dragon egg?").problems
                .contains("it drops the planned line's no"))
        #expect(
            try check("A dragon egg? Never heard of one.", planned: planned, player: "got a dragon egg?").problems
                == [])
    }

    /// A line with no content ("la") keeps no fact only because the planned line states none: it must still carry
    /// the planned line's words, at least one of its content words (or, when it has none, one of its words).
    @Test(arguments: [
        ("la", "Welcome, welcome! Have a look around."), ("la la la", "Welcome, welcome! Have a look around."),
        ("...", "Hello there, friend!"), ("Hm.", "Hello there, friend!"), ("Splendid weather.", "Come back soon!"),
    ])
    func aLineWithoutThePlannedLinesWordsIsRefused(_ voiced: String, _ planned: String) throws {
        let problems = try check(voiced, planned: planned, player: "hello").problems
        #expect(problems.contains("it carries none of the planned line's words"), "\(problems)")
    }

    @Test(arguments: [
        ("Welcome! Look around, take your time.", "Welcome, welcome! Have a look around."),
        ("Hi there!", "Hello there, friend!"), ("Come again soon, friend.", "Come back soon!"),
    ])
    func aLineWithSomeOfThePlannedLinesWordsPasses(_ voiced: String, _ planned: String) throws {
        #expect(try check(voiced, planned: planned, player: "hello").problems == [])
    }

    @Test func anInventedNameIsRefused() throws {
        let problems = try check("The lantern is 25 gold, made by Old Grimsby of Elyria.").problems
        #expect(problems.contains { $0.hasPrefix("it invents the name") })
    }

    @Test func lore_of_its_own_is_refused() throws {
        let planned = "I have never heard of a dragon egg."
        let problems = try check(
            "It's a magical relic, not found except in ancient volcanic mountains beyond distant seas.",
            planned: planned, player: "got a dragon egg?"
        ).problems
        #expect(problems.contains { $0.hasPrefix("most of its words are its own") })
    }

    @Test func scriptLabelsAndEmptyLinesAreRefused() throws {
        #expect(try check("").problems == ["it says nothing"])
        #expect(try check("The lantern is 25 gold.\nPlayer: thanks").problems.contains { $0.contains("script label") })
    }

    @Test func theLineIsCleanedAndCutToTheBudget() throws {
        let result = try check(
            "Mira Quickcoin: \"The lantern is 25 gold. It shines. It glows. It gleams.\"", budget: 2)
        #expect(result.line == "The lantern is 25 gold. It shines.")
        #expect(VoicedLineCheck.cleaned("Mira: Hello there.", speaker: "Mira Quickcoin", budget: 3) == "Hello there.")
        #expect(VoicedLineCheck.cleaned("One.\n\nTwo.", speaker: "Mira", budget: 3) == "One.")
        #expect(VoicedLineCheck.firstSentences(of: "It is 2.5 feet. Fine.", 1) == "It is 2.5 feet.")
    }
}

extension VoicedLineCheckTests {
    @Test func aLabelCountsOnlyAtTheStartOfALineOrSentence() throws {
        #expect(try check("Mind you: the lantern is 25 gold.").problems == [])
        #expect(try check("Line: the lantern is 25 gold.").problems.contains { $0.contains("script label") })
        #expect(try check("The lantern is 25 gold. You: thanks!").problems.contains { $0.contains("script label") })
    }
}

extension VoicedLineCheckTests {
    func checker() throws -> VoicedLineCheck {
        VoicedLineCheck(vocabulary: ClaimVocabulary(world: try shippedPack().world), sentenceBudget: 3)
    }

    @Test func thePlannedLinesFactsAreListedAsWritten() throws {
        let check = try checker()
        #expect(check.facts(in: Self.planned) == ["Brass Lantern", "25 gold"])
        #expect(
            check.facts(
                in: "Fine, fine: Mira Quickcoin offers 1 Brass Lantern for 20 gold. I never forget a face, Ada.")
                == ["Mira", "Quickcoin", "1", "Brass Lantern", "20 gold", "Ada"])
        #expect(check.facts(in: "I have never heard of a dragon egg.") == ["no"])
        #expect(check.facts(in: "Good day to you.") == [])
    }

    @Test func aPriceWrittenInDigitsStaysInDigits() throws {
        #expect(try check("The lantern is twenty-five gold.").problems == ["it writes the number 25 in words"])
    }

    @Test func aNameOfThePlannedLineIsKept() throws {
        let planned = "You told me your name is Ada, and I never forget a name."
        #expect(
            try check("You are she. She is you.", planned: planned, player: "what's my name?").problems
                .contains("it drops the name \"Ada\""))
        #expect(try check("Ada, you said. I never forget!", planned: planned, player: "what's my name?").problems == [])
    }

    @Test func aSentenceOfItsOwnIsRefusedEvenInALineThatKeepsTheFacts() throws {
        let planned = "For you, friend, the Flask of Lamp Oil is 5 gold."
        let problems = try check(
            "The Flask of Lamp Oil is 5 gold, friend, a fine flask of lamp oil for you. I'll give presents tomorrow.",
            planned: planned,
            player: "lamp oil?"
        ).problems
        #expect(problems.contains { $0.hasPrefix("a sentence of it is mostly its own") }, "\(problems)")
    }
}

/// The rest of the planned line after a voiced line that stopped part way (sentence-by-sentence voicing).
@Suite struct PlannedRemainderTests {
    static let planned = "Aye. The Brass Lantern is 25 gold. I also have the Wool Cloak at 12 gold. Anything else?"

    func remainder(after said: String, planned: String = planned) throws -> String {
        let world = try shippedPack().world
        return VoicedLineCheck(vocabulary: ClaimVocabulary(world: world), sentenceBudget: .max)
            .remainder(of: planned, after: said)
    }

    @Test func withNothingSaidTheWholePlannedLineIsSaid() throws {
        #expect(try remainder(after: "") == Self.planned)
        #expect(try remainder(after: "Well now, friend.") == Self.planned)
    }

    @Test func theRestFollowsThePointReachedWithoutRepeatingAFact() throws {
        #expect(
            try remainder(after: "Ah, the Brass Lantern, 25 gold.")
                == "I also have the Wool Cloak at 12 gold. Anything else?")
        #expect(try remainder(after: "The Brass Lantern? 25 gold. The Wool Cloak, 12 gold.") == "Anything else?")
    }

    @Test func aFactTheVoiceSkippedIsStillSaidButNotTheSmallTalkBeforeThePointReached() throws {
        #expect(
            try remainder(after: "The Wool Cloak is 12 gold.") == "The Brass Lantern is 25 gold. Anything else?")
    }

    @Test func aSentenceHalfSaidIsSaidWhole() throws {
        // The lantern is named, its price is not: the sentence is owed, and nothing was reached.
        #expect(try remainder(after: "The Brass Lantern is a fine thing.") == Self.planned)
    }
}
