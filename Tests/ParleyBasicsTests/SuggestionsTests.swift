import ParleyBasics
import Testing

/// The one did-you-mean used by the command line and by the content checks.
@Suite struct SuggestionsTests {
    @Test(arguments: [
        ("--jsn", ["--json", "--help"], "--json"),
        ("--fodler", ["--saves", "--folder", "--help"], "--folder"),
        ("contnet", ["content", "saves", "play"], "content"),
        ("silver_swrod", ["bread", "silver_sword", "gem"], "silver_sword"),
        // Case is ignored, in the word and in the candidates.
        ("--JSON", ["--json"], "--json"),
        ("Hal", ["hall", "yard"], "hall"),
        // A swap of neighbours counts 1, like one substitution.
        ("npcHasItme", ["npcHasItem", "playerHasItem"], "npcHasItem"),
        // Ties go to the alphabetically first candidate.
        ("bat", ["cat", "hat"], "cat"),
        ("bat", ["hat", "cat"], "cat"),
    ])
    func suggestsTheClosestLikelyTypo(_ word: String, _ candidates: [String], _ expected: String) {
        #expect(Suggestions.closest(to: word, in: candidates) == expected)
    }

    @Test(arguments: [
        // Too far: more than a third of the word's length (at least 1, at most 3) apart.
        ("--colour", ["--json", "--help"]),
        ("sword", ["lantern", "rope"]),
        ("ab", ["xy"]),
        // The word itself is never suggested, nor is anything from no candidates.
        ("json", ["json"]),
        ("json", []),
    ])
    func suggestsNothingWhenNothingIsClose(_ word: String, _ candidates: [String]) {
        #expect(Suggestions.closest(to: word, in: candidates) == nil)
    }

    @Test func theLimitGrowsWithTheWordUpToThree() {
        // 12 characters: 3 edits allowed, 4 are not.
        #expect(Suggestions.closest(to: "abcdefghijkl", in: ["abcdefghiXYZ"]) == "abcdefghiXYZ")
        #expect(Suggestions.closest(to: "abcdefghijkl", in: ["abcdefghWXYZ"]) == nil)
        // 30 characters: still at most 3.
        let long = String(repeating: "a", count: 30)
        #expect(Suggestions.closest(to: long, in: [String(repeating: "a", count: 26) + "bbbb"]) == nil)
        // 2 characters: 1 edit.
        #expect(Suggestions.closest(to: "ab", in: ["ac"]) == "ac")
    }

    @Test(arguments: [
        ("", "", 0), ("abc", "", 3), ("", "abc", 3), ("kitten", "sitting", 3), ("ca", "ac", 1), ("abc", "abc", 0),
        ("abcd", "badc", 2), ("ca", "abc", 3),
    ])
    func distanceIsTheOptimalStringAlignmentDistance(_ a: String, _ b: String, _ expected: Int) {
        #expect(Suggestions.distance(Array(a.unicodeScalars), Array(b.unicodeScalars)) == expected)
        #expect(Suggestions.distance(Array(b.unicodeScalars), Array(a.unicodeScalars)) == expected)
    }

    @Test(arguments: [
        ("ca", "ac", 2), ("abcd", "badc", 3), ("kitten", "sitting", 3), ("horshoe", "horseshoe", 2), ("", "ab", 2),
    ])
    func withoutSwapsItIsTheLevenshteinDistance(_ a: String, _ b: String, _ expected: Int) {
        #expect(Suggestions.distance(Array(a), Array(b), countingSwaps: false) == expected)
        #expect(Suggestions.distance(Array(b), Array(a), countingSwaps: false) == expected)
    }

    /// Every "did you mean" message is written by one helper, in the same words.
    @Test func didYouMeanWritesTheHint() {
        #expect(Suggestions.didYouMean("lanter", in: ["lantern", "rope"]) == #"did you mean "lantern"?"#)
        #expect(Suggestions.didYouMean("--jsn", in: ["--json", "--help"], quotes: .single) == "did you mean '--json'?")
        #expect(Suggestions.didYouMean("sword", in: ["lantern", "rope"]) == nil)
        #expect(Suggestions.didYouMean("{price}") == #"did you mean "{price}"?"#)
        #expect(
            Suggestions.didYouMean("Brass Lantern", quotes: .none, startsSentence: true)
                == "Did you mean Brass Lantern?")
    }
}
