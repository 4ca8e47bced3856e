import Testing

@testable import OpenAICompatible

/// The sentence budget and the loop cut, on whole replies and on replies that stream in pieces split anywhere.
@Suite(.timeLimit(.minutes(10))) struct ReplyShaperTests {
    static let loops = ReplyShaper.Rules(cutsLoops: true)

    static func budget(_ sentences: Int, loops: Bool = false) -> ReplyShaper.Rules {
        ReplyShaper.Rules(maximumSentences: sentences, cutsLoops: loops)
    }

    /// Feeds `pieces` one by one; returns what came out after each, and what `finish()` added.
    static func stream(_ pieces: [String], rules: ReplyShaper.Rules) -> (outputs: [String], rest: String) {
        var shaper = ReplyShaper(rules)
        let outputs = pieces.map { shaper.feed($0) }
        return (outputs, shaper.finish())
    }

    // MARK: - Sentence budget

    @Test(arguments: [
        ("Hello there. How are you? Fine, thanks!", 2, "Hello there. How are you?"),
        ("Hello there. How are you? Fine, thanks!", 1, "Hello there."),
        ("Hello there. How are you? Fine, thanks!", 5, "Hello there. How are you? Fine, thanks!"),
        ("It costs 2.5 gold. Deal?", 1, "It costs 2.5 gold."),
        ("Version 1.2.3 is out. Get it.", 1, "Version 1.2.3 is out."),
        ("Well...I think so. Yes.", 1, "Well...I think so."),
        ("Well... I think so. Yes.", 1, "Well..."),
        ("Wait… what? No.", 2, "Wait… what?"),
        (#"He said "Go." Then he left."#, 1, #"He said "Go.""#),
        ("(Really?) Yes. No.", 2, "(Really?) Yes."),
        ("Mr. Brown is here.", 1, "Mr."),
        ("What?! No way. Fine.", 2, "What?! No way."),
        ("  \n Hi.   Bye.  ", 5, "Hi.   Bye."),
        ("No end mark at all", 1, "No end mark at all"),
        ("One. Two.", 0, "One."),
        ("... Hello. Bye.", 1, "... Hello."),
        ("Hello.\nPlayer: Bye.", 1, "Hello."),
    ])
    func theBudgetKeepsThatManySentences(_ text: String, _ sentences: Int, _ expected: String) {
        #expect(ReplyShaper.shape(text, rules: Self.budget(sentences)) == expected)
        // Loop cutting changes nothing in replies without loops.
        #expect(ReplyShaper.shape(text, rules: Self.budget(sentences, loops: true)) == expected)
    }

    @Test func budgetsBelowOneCountAsOne() {
        #expect(ReplyShaper.Rules(maximumSentences: -3, cutsLoops: false).maximumSentences == 1)
        #expect(ReplyShaper.Rules(cutsLoops: false).cutsNothing)
        #expect(!ReplyShaper.Rules(maximumSentences: 2, cutsLoops: false).cutsNothing)
        #expect(!Self.loops.cutsNothing)
    }

    // MARK: - Loops

    @Test(arguments: [
        // A sentence that repeats an earlier one, ignoring case, punctuation and spaces.
        (
            "I'm so glad you're here. I'm so glad you're here. I'm so glad you're here. I'm so",
            "I'm so glad you're here."
        ),
        ("Hello, friend! HELLO   friend... What do you need?", "Hello, friend!"),
        ("Welcome. Rope is cheap. Welcome!", "Welcome. Rope is cheap."),
        // The last sentence, without an end mark, repeats an earlier one.
        ("Hello there. Hello there", "Hello there."),
        // A run of six or more words repeated right after itself.
        (
            "Welcome to my shop. I am so glad you are here I am so glad you are here I am so",
            "Welcome to my shop. I am so glad you are here"
        ),
        // A short unit repeated: one copy is kept.
        ("The price is fair, so glad so glad so glad so glad so glad so glad", "The price is fair, so glad"),
        // A word four times in a row.
        ("No no no no no no.", "No"),
        ("Yes, very, very, very, very good.", "Yes, very,"),
        // The cut is never before the end of the last complete sentence (a stream has shown it).
        ("So glad so glad. So glad so glad so glad so glad", "So glad so glad."),
        ("Oh yes. Yes yes yes yes.", "Oh yes."),
    ])
    func aLoopIsCutWhereItStarts(_ text: String, _ expected: String) {
        #expect(ReplyShaper.shape(text, rules: Self.loops) == expected)
        // Without loop cutting, the same text is kept whole (trimmed).
        #expect(ReplyShaper.shape(text, rules: Self.budget(100)) == text)
    }

    @Test(arguments: [
        "I sell rope, lanterns and bread. The rope is three gold, the lanterns five. Bread is cheap today.",
        "Ha ha ha! That that is a good one.",
        "Good day. Good day to you, traveller. Good evening.",
        "It is 2.5 gold, or 2.50 with the tax. 2.5 is fair.",
        "The old man said the old road is the old way home, and the old way is the best way.",
        "One, two, three, four, five, six. Seven, eight, nine, ten, eleven, twelve.",
    ])
    func nothingIsCutWhenNothingLoops(_ text: String) {
        #expect(ReplyShaper.shape(text, rules: Self.loops) == text)
        var shaper = ReplyShaper(Self.loops)
        _ = shaper.feed(text)
        #expect(!shaper.isCut)
    }

    @Test func budgetAndLoopsTogetherCutAtWhicheverComesFirst() {
        let text = "Fine steel. Fair prices. Fine steel. Come again."
        #expect(ReplyShaper.shape(text, rules: Self.budget(3, loops: true)) == "Fine steel. Fair prices.")
        #expect(ReplyShaper.shape(text, rules: Self.budget(1, loops: true)) == "Fine steel.")
    }

    // MARK: - Streaming

    static let streamedReplies = [
        "I'm so glad you're here. I'm so glad you're here. I'm so glad you're here.",
        "Welcome to my shop. I am so glad you are here I am so glad you are here I am so",
        "So glad so glad. So glad so glad so glad so glad",
        "Hello there. How are you? Fine, thanks! It costs 2.5 gold… Deal?",
        "  Fine steel, fair prices. Fine steel, fair prices.  ",
        "No no no no no no.",
        "Café — naïve “quotes.” Ünïcödé? Yes! 🙂 🙂 🙂 🙂 done.",
    ]

    @Test(arguments: streamedReplies)
    func piecesSplitAnywhereGiveTheWholeTextsReply(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        for rules in [Self.loops, Self.budget(2), Self.budget(2, loops: true)] {
            let whole = ReplyShaper.shape(text, rules: rules)
            for split in 0...scalars.count {
                let pieces = [scalars[..<split], scalars[split...]].map { String(String.UnicodeScalarView($0)) }
                let (outputs, rest) = Self.stream(pieces, rules: rules)
                #expect(outputs.joined() + rest == whole, "split at \(split), \(rules)")
            }
        }
    }

    @Test(arguments: streamedReplies)
    func scalarByScalarNothingShownIsCutLater(_ text: String) {
        for rules in [Self.loops, Self.budget(1), Self.budget(2, loops: true)] {
            let whole = ReplyShaper.shape(text, rules: rules)
            var shaper = ReplyShaper(rules)
            var shown = ""
            for scalar in text.unicodeScalars {
                shown += shaper.feed(String(scalar))
                #expect(
                    whole.hasPrefix(shown), "shown \(shown.debugDescription) is not kept in \(whole.debugDescription)")
                if shaper.isCut { #expect(shown == whole) }
            }
            #expect(shown + shaper.finish() == whole)
        }
    }

    @Test func deltasSplitMidWordStreamWordByWordUntilAWordRepeats() {
        let (outputs, rest) = Self.stream(
            ["I'm so gl", "ad you're he", "re. I'm so gl", "ad you're he", "re. I'm"], rules: Self.loops)
        // New words come out as they arrive; the second sentence, which begins like the first, is held back and
        // dropped.
        #expect(outputs == ["I'm so gl", "ad you're he", "re.", "", ""])
        #expect(rest == "")
    }

    @Test func aSentenceThatOnlyBeginsLikeAnEarlierOneIsShownOnceItDiffers() {
        var shaper = ReplyShaper(Self.loops)
        #expect(shaper.feed("Good day. Good") == "Good day.")
        #expect(shaper.feed(" day") == "")
        #expect(shaper.feed(" to") == " Good day to")
        #expect(shaper.feed(" you.") == " you.")
        #expect(shaper.finish() == "")
    }

    @Test func repeatedWordsAreHeldUntilANewWordShowsTheyAreNoLoop() {
        var shaper = ReplyShaper(Self.loops)
        #expect(shaper.feed("The rope, the") == "The rope,")
        #expect(shaper.feed(" rope,") == "")
        #expect(shaper.feed(" the lantern") == " the rope, the lantern")
        #expect(shaper.finish() == "")
    }

    @Test func theBudgetAloneHoldsNothingBack() {
        var shaper = ReplyShaper(Self.budget(1))
        #expect(shaper.feed("  Fine ste") == "Fine ste")
        #expect(shaper.feed("el, fine steel.") == "el, fine steel.")
        #expect(!shaper.isCut)
        #expect(shaper.feed(" More") == "")
        #expect(shaper.isCut)
        #expect(shaper.feed(" and more.") == "")
        #expect(shaper.finish() == "")
    }

    @Test func aCutReplyIgnoresWhateverFollows() {
        var shaper = ReplyShaper(Self.loops)
        #expect(shaper.feed("No no no no") == "No")
        #expect(!shaper.isCut)  // the fourth word may still be "nobody"
        #expect(shaper.feed(" ") == "")
        #expect(shaper.isCut)
        #expect(shaper.feed(" Something new entirely.") == "")
        #expect(shaper.finish() == "")
    }

    @Test func trailingWhitespaceIsNeverShown() {
        var shaper = ReplyShaper(Self.budget(3))
        #expect(shaper.feed("Hi.  ") == "Hi.")
        #expect(shaper.feed("\n") == "")
        #expect(shaper.finish() == "")
        var other = ReplyShaper(Self.budget(3))
        #expect(other.feed("Hi.  ") == "Hi.")
        #expect(other.feed("Bye.") == "  Bye.")
    }

    @Test func aLongReplyWithoutLoopsIsShapedInLinearishTime() {
        // 30,000 words, few of them repeated: the loop checks stay cheap, and nothing is cut.
        let words = (0..<30_000).map { "w\($0 % 7_919)x\($0 / 7_919)" }
        let text = words.joined(separator: " ") + "."
        var shaper = ReplyShaper(Self.loops)
        var shown = ""
        var index = text.startIndex
        while index < text.endIndex {
            let end = text.index(index, offsetBy: 7, limitedBy: text.endIndex) ?? text.endIndex
            shown += shaper.feed(String(text[index..<end]))
            index = end
        }
        shown += shaper.finish()
        #expect(shown == text)
    }
}
