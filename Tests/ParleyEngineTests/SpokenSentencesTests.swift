import GameWorld
import Testing

@testable import ParleyEngine

/// Cutting a streamed line into sentences: where a sentence ends, whatever pieces the line came in.
@Suite struct SpokenSentencesTests {
    /// Lines and the sentences they hold.
    static let lines: [(String, [String])] = [
        ("Aye, the lantern. It is 25 gold!", ["Aye, the lantern.", "It is 25 gold!"]),
        ("Really?! Yes.", ["Really?!", "Yes."]),
        ("It weighs 3.5 stone. Heavy.", ["It weighs 3.5 stone.", "Heavy."]),
        ("That is 1,000 gold. Too much?", ["That is 1,000 gold.", "Too much?"]),
        ("Well... maybe not. Ask again.", ["Well... maybe not.", "Ask again."]),
        ("Well… you never! Off with you.", ["Well… you never!", "Off with you."]),
        ("Well… I never!", ["Well…", "I never!"]),
        ("Ask Mr. Brann. He knows.", ["Ask Mr. Brann.", "He knows."]),
        ("Old J. R. Smith made it. Fine work.", ["Old J. R. Smith made it.", "Fine work."]),
        ("Cloth, e.g. wool, sells well. Truly.", ["Cloth, e.g. wool, sells well.", "Truly."]),
        ("\"Go east.\" She said so.", ["\"Go east.\"", "She said so."]),
        ("No. I don't sell lamps.", ["No.", "I don't sell lamps."]),
        ("One sentence without an end", ["One sentence without an end"]),
        ("  Spaces   around.   ", ["Spaces   around."]),
        ("", []),
    ]

    @Test(arguments: lines) func aWholeLineIsCut(line: String, sentences: [String]) {
        #expect(SpokenSentences.sentences(of: line) == sentences)
    }

    /// Every line, cut into pieces of every size from one character up: the same sentences, each given out as soon
    /// as the first character after it has come, never later.
    @Test(arguments: lines) func theCutDoesNotDependOnThePieces(line: String, sentences: [String]) {
        let characters = Array(line)
        for size in 1...max(characters.count, 1) {
            var splitter = SpokenSentences()
            var found: [String] = []
            var start = 0
            while start < characters.count {
                let end = min(start + size, characters.count)
                found += splitter.append(String(characters[start..<end]))
                start = end
            }
            if let last = splitter.finish() { found.append(last) }
            #expect(found == sentences, "pieces of \(size)")
        }
    }

    @Test func aSentenceIsGivenOutOnceTheNextOneStartsAndSeveralInOnePiece() {
        var splitter = SpokenSentences()
        #expect(splitter.append("Aye, the lan") == [])
        #expect(splitter.append("tern.") == [])
        // A space is not enough: "e.g. wool" goes on after a point and a space.
        #expect(splitter.append(" ") == [])
        #expect(splitter.append("It") == ["Aye, the lantern."])
        #expect(splitter.append(" is 25 gold. Cheap! Yours? Y") == ["It is 25 gold.", "Cheap!", "Yours?"])
        #expect(splitter.finish() == "Y")
        #expect(splitter.finish() == nil)
    }
}
