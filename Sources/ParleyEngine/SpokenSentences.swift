/// Cuts a line that arrives piece by piece (a model's stream) into the sentences a text-to-speech engine can say one
/// at a time, each as soon as it is known to be complete.
///
/// A sentence ends after `.`, `!`, `?` or `…` (a run of them, as in `...` or `?!`, and any closing quotes or
/// brackets after it) that is followed by white space and then by a character that is not a lowercase letter.
/// So the end of a sentence is only known once the first character of the next one has come (or the line has
/// ended: `finish()`). That makes these one sentence each, whatever the pieces they came in:
/// - `3.5`, `1,000.` (a point between digits is not followed by a space);
/// - `Well... maybe not.` and `e.g. the lamp` (the next word starts lowercase);
/// - `Mr. Smith`, `Dr. Brann`, `J. R. Tolkien` (a known abbreviation or a single capital letter before the point).
///
/// The checks read each sentence with `ClaimText`, which cuts finer (at every `.`, `;` and line break): a sentence
/// here is one or more of `ClaimText`'s, never part of one. Voicing checks the line said so far with each new
/// sentence added (see docs/model-servers.md, "Sentence by sentence").
///
/// ```swift
/// var sentences = SpokenSentences()
/// sentences.append("Aye, the lan")             // []
/// sentences.append("tern. It is 25 gold")      // ["Aye, the lantern."]
/// sentences.finish()                           // "It is 25 gold"
/// ```
struct SpokenSentences {
    /// Words that end with a point without ending a sentence (lowercased, without the point).
    static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "st", "mt", "sr", "jr", "prof", "capt", "col", "gen", "lt", "sgt", "vs", "approx",
    ]

    /// What has come and is not yet part of a sentence given out.
    private var pending: [Character] = []

    /// Creates an empty splitter.
    init() {}

    /// Adds the next piece of the line and returns the sentences it completed, in order, trimmed of surrounding
    /// white space.
    ///
    /// - Parameter piece: The next characters of the line (any length, cut anywhere).
    /// - Returns: The sentences now known to be complete; often none.
    mutating func append(_ piece: String) -> [String] {
        pending.append(contentsOf: piece)
        var sentences: [String] = []
        while let end = Self.firstEnd(in: pending) {
            let sentence = String(pending[..<end]).trimmingWhitespace
            pending.removeFirst(end)
            if !sentence.isEmpty { sentences.append(sentence) }
        }
        return sentences
    }

    /// Ends the line and returns what is left of it, the last sentence, or `nil` when nothing but white space is.
    mutating func finish() -> String? {
        let rest = String(pending).trimmingWhitespace
        pending = []
        return rest.isEmpty ? nil : rest
    }

    /// A whole line cut into sentences, as `append` and `finish` would cut it.
    ///
    /// - Parameter line: The line.
    /// - Returns: Its sentences, in order.
    static func sentences(of line: String) -> [String] {
        var splitter = SpokenSentences()
        var sentences = splitter.append(line)
        if let last = splitter.finish() { sentences.append(last) }
        return sentences
    }

    // MARK: - Ends

    /// The characters that end a sentence.
    private static let terminators: Set<Character> = [".", "!", "?", "…"]
    /// The characters that may follow a sentence's final mark and still belong to it.
    private static let closers: Set<Character> = ["\"", "'", "\u{201D}", "\u{2019}", ")", "]"]

    /// The index just after the first complete sentence in `characters` (its closing quotes included), or `nil`
    /// when no sentence is known to be complete yet.
    private static func firstEnd(in characters: [Character]) -> Int? {
        var index = 0
        while index < characters.count {
            guard terminators.contains(characters[index]) else {
                index += 1
                continue
            }
            let markStart = index
            while index < characters.count, terminators.contains(characters[index]) { index += 1 }
            while index < characters.count, closers.contains(characters[index]) { index += 1 }
            let end = index
            var next = end
            while next < characters.count, characters[next].isWhitespace { next += 1 }
            // Not followed by a space (3.5, "e.g.x"): not an end; the next mark is looked at.
            guard next > end else { continue }
            // The first character of what follows has not come: the end is not known yet.
            guard next < characters.count else { return nil }
            if characters[next].isLowercase { continue }
            if characters[markStart] == ".", markStart + 1 == end || characters[markStart + 1] != ".",
                isAbbreviation(before: markStart, in: characters)
            {
                continue
            }
            return end
        }
        return nil
    }

    /// Whether the word that ends just before `index` is an abbreviation or a single capital letter (an initial).
    private static func isAbbreviation(before index: Int, in characters: [Character]) -> Bool {
        var start = index
        while start > 0, characters[start - 1].isLetter { start -= 1 }
        guard start < index else { return false }
        let word = String(characters[start..<index])
        if word.count == 1, word.first?.isUppercase == true { return true }
        return abbreviations.contains(word.lowercased())
    }
}

extension String {
    /// The string without white space at either end.
    fileprivate var trimmingWhitespace: String {
        var characters = Substring(self)
        while characters.first?.isWhitespace == true { characters.removeFirst() }
        while characters.last?.isWhitespace == true { characters.removeLast() }
        return String(characters)
    }
}
