import GameWorld

/// One sentence of an NPC line read for claims: the items and categories it names, the amounts of gold it states,
/// and the small patterns around them.
struct ClaimReading {
    /// An item or category named in the sentence.
    struct Mention {
        /// What is named.
        var named: ClaimVocabulary.Named
        /// Where its words start and end in the sentence's tokens.
        var range: Range<Int>
        /// The number right before it (`2 Tallow Candle`, `2 × Tallow Candle`, `three candles`), if any.
        var quantity: Int?
        /// The item, when an item is named.
        var item: ItemID? {
            if case .item(let id) = named { id } else { nil }
        }
    }

    /// An amount of gold: a number followed by `gold`.
    struct Amount {
        /// How much.
        var value: Int
        /// Where it is in the sentence's tokens.
        var range: Range<Int>
        /// Whether the words say it is for one (`apiece`, `each`, `a piece`).
        var perUnit: Bool
    }

    /// The sentence.
    let sentence: ClaimText.Sentence
    /// Its words (`""` for punctuation), by token.
    let words: [String]
    /// The items and categories it names, in order.
    let mentions: [Mention]
    /// The amounts of gold it states, in order.
    let amounts: [Amount]
    /// The number words of the speaker's lexicon.
    let numbers: Lexicon.Numbers

    /// Reads a sentence.
    ///
    /// - Parameters:
    ///   - sentence: The sentence.
    ///   - vocabulary: The world's words.
    ///   - numbers: The number words of the speaker's lexicon (`World.lexicon(for:)`).
    init(_ sentence: ClaimText.Sentence, vocabulary: ClaimVocabulary, numbers: Lexicon.Numbers) {
        self.sentence = sentence
        self.numbers = numbers
        let words = sentence.words
        self.words = words
        let tokens = sentence.tokens
        var mentions: [Mention] = []
        var amounts: [Amount] = []
        var index = 0
        while index < words.count {
            if let (value, end) = numbers.number(in: words, at: index), end < words.count,
                words[end] == "gold"
            {
                var last = end + 1
                if last < words.count, ["pieces", "coins", "coin", "piece"].contains(words[last]) { last += 1 }
                let after = words[last...].prefix(2)
                let perUnit = after.first == "apiece" || after.first == "each" || Array(after) == ["a", "piece"]
                amounts.append(Amount(value: value, range: index..<last, perUnit: perUnit))
                index = last
                continue
            }
            guard let (named, count) = vocabulary.longestName(in: words, at: index) else {
                index += 1
                continue
            }
            mentions.append(
                Mention(
                    named: named, range: index..<(index + count),
                    quantity: Self.quantity(before: index, in: tokens, words: words, numbers: numbers)))
            index += count
        }
        self.mentions = mentions
        self.amounts = amounts
    }

    /// The number that ends right before `index` (a `×` or `x` between allowed).
    private static func quantity(
        before index: Int, in tokens: [ClaimText.Token], words: [String], numbers: Lexicon.Numbers
    ) -> Int? {
        var end = index
        if end > 0, tokens[end - 1].mark == "×" || tokens[end - 1].word == "x" { end -= 1 }
        for start in stride(from: end - 1, through: max(0, end - 5), by: -1) {
            if let (value, stop) = numbers.number(in: words, at: start), stop == end {
                return value
            }
        }
        return nil
    }

    // MARK: - Patterns

    /// Whether the sentence holds `phrase` as words in a row.
    func contains(_ phrase: [String]) -> Bool {
        guard phrase.count <= words.count else { return false }
        return (0...(words.count - phrase.count)).contains { words[$0..<($0 + phrase.count)].elementsEqual(phrase) }
    }

    /// Whether the sentence holds any of these words.
    func containsAny(_ set: Set<String>) -> Bool { words.contains { set.contains($0) } }

    /// The words of the sentence, punctuation left out.
    var plainWords: [String] { words.filter { !$0.isEmpty } }

    /// The words of the clause before a token, from the clause's start; when that is empty and the clause follows
    /// a `:`, the clause before the colon.
    func clauseWords(before index: Int) -> [String] {
        var start = index
        while start > 0, !sentence.tokens[start - 1].isClauseBreak { start -= 1 }
        if start == index, start > 0, sentence.tokens[start - 1].mark == ":" {
            return clauseWords(before: start - 1)
        }
        return words[start..<index].filter { !$0.isEmpty }
    }

    /// The words of the clause after a token, to the clause's end.
    func clauseWords(after index: Int) -> [String] {
        var end = index
        while end < words.count, !sentence.tokens[end].isClauseBreak { end += 1 }
        return words[index..<end].filter { !$0.isEmpty }
    }
}

extension Array where Element == String {
    /// Whether the words end with `phrase`.
    func endsWithWords(_ phrase: [String]) -> Bool {
        count >= phrase.count && suffix(phrase.count).elementsEqual(phrase)
    }
    /// Whether the words start with `phrase`.
    func startsWithWords(_ phrase: [String]) -> Bool {
        count >= phrase.count && prefix(phrase.count).elementsEqual(phrase)
    }
}
