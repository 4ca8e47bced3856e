// What is said after a voiced line stopped part way (sentence-by-sentence voicing): the rest of the planned line.

extension VoicedLineCheck {
    /// The facts a line states, in a form that compares across wordings: its numbers by value (not `one` or `a`),
    /// the items and categories it names, and its capitalised names (lowercased).
    func factKeys(in line: String) -> Set<String> {
        let reading = read(line)
        var keys: Set<String> = []
        for number in reading.numbers where !reading.weakNumbers.contains(number) { keys.insert("number \(number)") }
        for named in reading.named { keys.insert("\(named)") }
        for name in reading.capitalised where !Self.commonWords.contains(name) { keys.insert("name \(name)") }
        return keys
    }

    /// The rest of a planned line after the sentences `said` of a voiced line that stopped part way (a sentence
    /// failed its checks, the server failed or was late, or the whole line still owed a fact).
    ///
    /// The planned line is cut into sentences (`SpokenSentences`). A planned sentence is *said* when it states at
    /// least one fact (`factKeys(in:)`: a number, an item or category, a name) and `said` states every one of them.
    /// The voiced line *reached* the planned sentence after the last said one (the first, when none is said). The
    /// remainder is, in order and as written, every planned sentence that is not said and either comes from the
    /// one reached on or states a fact: the small talk after the point reached stays, the small talk before it is
    /// passed, no fact already said is said again, and no fact is lost (one the voiced line skipped is still said).
    /// With nothing said, it is the whole planned line.
    ///
    /// ```
    /// planned:   "Aye. The Brass Lantern is 25 gold. I also have Lamp Oil at 3 gold. Anything else?"
    /// said:      "Ah, the Brass Lantern, 25 gold."         (then a sentence failed)
    /// remainder: "I also have Lamp Oil at 3 gold. Anything else?"
    /// ```
    ///
    /// - Parameters:
    ///   - planned: The planned line.
    ///   - said: The voiced sentences said, joined.
    /// - Returns: The remainder, its sentences joined by spaces; empty when nothing is left to say.
    func remainder(of planned: String, after said: String) -> String {
        let sentences = SpokenSentences.sentences(of: planned)
        let saidKeys = factKeys(in: said)
        let keys = sentences.map(factKeys(in:))
        func isSaid(_ index: Int) -> Bool { !keys[index].isEmpty && keys[index].isSubset(of: saidKeys) }
        let reached = (sentences.indices.last(where: isSaid) ?? -1) + 1
        return sentences.indices.filter { !isSaid($0) && ($0 >= reached || !keys[$0].isEmpty) }
            .map { sentences[$0] }.joined(separator: " ")
    }
}
