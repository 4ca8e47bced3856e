import GameWorld

/// A lexicon (`Lexicon`, the pack's words) made ready for matching: phrases split into words once, word sets as
/// sets, synonyms split. Built with the world's item resolver, once per world.
struct Vocabulary: Sendable {
    /// The checks in order.
    let priority: [Lexicon.Check]
    /// Each table's phrases as words.
    private let phrases: [Lexicon.PhraseTable: [Words]]
    /// Each set's words.
    private let words: [Lexicon.WordSet: Set<String>]
    /// The words each one-word synonym stands for.
    private let synonyms: [String: [String]]
    /// The synonyms of more than one word ("to by" → "to buy"), by their first word, longest first.
    private let phraseSynonyms: [String: [(phrase: [String], meaning: [String])]]
    /// Number words that add up.
    let numberWords: [String: Int]
    /// Number words that multiply.
    let scales: [String: Int]
    /// Words that join number words.
    let joiners: Set<String>
    /// Words for one before a scale.
    let numberArticles: Set<String>
    /// Phrases for amounts, longest first.
    let amounts: [(words: Words, value: Int, isGold: Bool)]
    /// The sizes of short lines.
    let limits: Lexicon.Limits
    /// Finds the name a player gives ("my name is Tamsin", "I'm Wren").
    let names: PlayerNameFinder
    /// The lexicon's words for directions and command particles of two letters or more (`down`, `north`, `up`):
    /// after a verb they say where to go, not what to get ("I need to get *down* into the cellar").
    private let directions: Set<String>
    /// The words before the one an item is handed to, from the game's `give` command (`to`; German `an`, `zu`): "give
    /// bread *to* your mother" hands it to someone else.
    let recipients: Set<String>

    /// Prepares a lexicon.
    ///
    /// - Parameter lexicon: The world's lexicon.
    init(_ lexicon: Lexicon) {
        priority = lexicon.priority
        let words = lexicon.words.mapValues { Set($0.flatMap(Words.tokenize)) }
        self.words = words
        var phrases = lexicon.phrases.mapValues { $0.map { Words($0) }.filter { !$0.isEmpty } }
        // "Give me" is also "give us": a `buy` phrase with a `speaker` word stands for each of them.
        if let buy = phrases[.buy], let speakers = words[.speaker], speakers.count > 1 {
            var all = buy
            for phrase in buy {
                for (index, token) in phrase.tokens.enumerated() where speakers.contains(token) {
                    for other in speakers.sorted() where other != token {
                        var tokens = phrase.tokens
                        tokens[index] = other
                        let variant = Words(tokens: tokens)
                        if !all.contains(variant) { all.append(variant) }
                    }
                }
            }
            phrases[.buy] = all
        }
        self.phrases = phrases
        var synonyms: [String: [String]] = [:]
        var phraseSynonyms: [String: [(phrase: [String], meaning: [String])]] = [:]
        for (key, meaning) in lexicon.synonyms {
            let phrase = Words.tokenize(key)
            if phrase.count == 1 {
                synonyms[phrase[0]] = Words.tokenize(meaning)
            } else if let first = phrase.first {
                phraseSynonyms[first, default: []].append((phrase, Words.tokenize(meaning)))
            }
        }
        self.synonyms = synonyms
        self.phraseSynonyms = phraseSynonyms.mapValues {
            $0.sorted { ($0.phrase.count, $1.phrase.joined()) > ($1.phrase.count, $0.phrase.joined()) }
        }
        numberWords = lexicon.numbers.words
        scales = lexicon.numbers.scales
        joiners = Set(lexicon.numbers.joiners)
        numberArticles = Set(lexicon.numbers.articles)
        amounts = lexicon.numbers.amounts.map { (Words($0.phrase), $0.value, $0.isGold) }
            .filter { !$0.0.isEmpty }
            .sorted { $0.0.count > $1.0.count }
        limits = lexicon.limits
        names = PlayerNameFinder(lexicon)
        recipients = Set(lexicon.commands(.recipient).flatMap(Words.tokenize))
        directions = Set(
            (lexicon.directions.values.joined() + lexicon.commands(.particles)).flatMap(Words.tokenize).filter {
                $0.count >= 2
            })
    }

    /// Whether a word is one of the lexicon's directions or command particles (two letters or more).
    func isDirection(_ word: String) -> Bool { directions.contains(word) }

    /// Every word of every phrase table and word set, and the number words: the words the lexicon knows.
    var allWords: Set<String> {
        var words = Set(phrases.values.flatMap { $0.flatMap(\.tokens) })
        for set in self.words.values { words.formUnion(set) }
        words.formUnion(numberWords.keys)
        words.formUnion(scales.keys)
        for amount in amounts { words.formUnion(amount.words.tokens) }
        for synonym in synonyms.values { words.formUnion(synonym) }
        for synonym in phraseSynonyms.values.joined() { words.formUnion(synonym.meaning) }
        return words
    }

    /// The phrases of a table.
    func phrases(_ table: Lexicon.PhraseTable) -> [Words] { phrases[table] ?? [] }

    /// The words of a set.
    func words(_ set: Lexicon.WordSet) -> Set<String> { words[set] ?? [] }

    /// Whether a word is in a set.
    func isWord(_ word: String, in set: Lexicon.WordSet) -> Bool { words[set]?.contains(word) ?? false }

    /// A player's line as words, each synonym replaced by the words it stands for (`pls` → `please`, `to by` →
    /// `to buy`); where synonyms overlap, the longest phrase at the earliest word wins.
    ///
    /// - Parameter text: What the player said.
    /// - Returns: The words.
    func line(_ text: String) -> Words {
        let tokens = Words.tokenize(text)
        guard tokens.contains(where: { synonyms[$0] != nil || phraseSynonyms[$0] != nil }) else {
            return Words(tokens: tokens)
        }
        var read: [String] = []
        read.reserveCapacity(tokens.count + 2)
        var index = 0
        reading: while index < tokens.count {
            let token = tokens[index]
            for synonym in phraseSynonyms[token] ?? []
            where index + synonym.phrase.count <= tokens.count
                && tokens[index..<(index + synonym.phrase.count)].elementsEqual(synonym.phrase)
            {
                read += synonym.meaning
                index += synonym.phrase.count
                continue reading
            }
            read += synonyms[token] ?? [token]
            index += 1
        }
        return Words(tokens: read)
    }
}
