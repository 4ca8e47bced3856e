import GameWorld

/// What a player is likely to say in a pack, for a recogniser to listen for: sentences made of the lexicon's phrases
/// (asking prices, buying, selling, bidding, greeting, recalling), the world's item names (full names, aliases and
/// head words), NPC names, number words and game commands.
///
/// pocketsphinx is biased by a language model built from these sentences (`NGramLanguageModel`); a transcription
/// server is given the names as its `prompt`. The sentences are made from the pack's content only, never from its
/// evaluation corpus, so that the round-trip figure (`parley-bench listen`) measures lines the recogniser was not
/// fitted to.
///
/// ```swift
/// let vocabulary = SpeechVocabulary(world: pack.world)
/// let heard = try await PocketSphinxRecognizer().recognize(audio, vocabulary: vocabulary)
/// ```
public struct SpeechVocabulary: Hashable, Sendable {
    /// The language, the first part of the lexicon's tag (`en`, `de`).
    public var language: String
    /// The sentences, lower case, words separated by single spaces, without punctuation but apostrophes.
    public var sentences: [String]
    /// The names worth spelling for a recogniser: items' names and aliases, NPCs' names, places' names.
    public var names: [String]

    /// Creates a vocabulary from sentences.
    ///
    /// - Parameters:
    ///   - language: The language, `en` for example.
    ///   - sentences: What the player may say; each is normalised (lower case, punctuation removed).
    ///   - names: The names worth spelling for a recogniser.
    public init(language: String, sentences: [String], names: [String] = []) {
        self.language = language
        self.sentences = sentences.map(Self.normalized).filter { !$0.isEmpty }
        self.names = names
    }

    /// A vocabulary of sentences already normalised.
    private init(language: String, normalizedSentences: [String], names: [String]) {
        self.language = language
        self.sentences = Self.unique(normalizedSentences)
        self.names = names
    }

    /// The vocabulary of a world: its lexicon's phrases, its items, NPCs and places, its commands and number words.
    ///
    /// - Parameter world: The world, with its lexicon.
    public init(world: World) {
        let lexicon = world.lexicon
        let language = lexicon.language.lowercased().split(separator: "-").first.map(String.init) ?? "en"
        let items = world.items.values.sorted { $0.id < $1.id }
        var itemWords: [String] = []
        for item in items {
            let name = Self.normalized(item.name)
            itemWords.append(name)
            if let head = name.split(separator: " ").last { itemWords.append(String(head)) }
            itemWords += item.aliases.map(Self.normalized)
        }
        itemWords = Self.unique(itemWords)
        let npcs = world.npcs.values.sorted { $0.id < $1.id }
        var npcNames: [String] = []
        for npc in npcs {
            let name = Self.normalized(npc.name)
            npcNames.append(name)
            if let first = name.split(separator: " ").first { npcNames.append(String(first)) }
        }
        npcNames = Self.unique(npcNames)
        let places = world.locations.values.map { Self.normalized($0.name) }.sorted()
        let numbers = Self.numberPhrases(lexicon.numbers)
        let determiners = lexicon.words[.determiners] ?? []
        let copulas = lexicon.words[.copulas] ?? []
        let gold = lexicon.words[.gold] ?? []

        // The phrases players say most (prices, buying, selling) go with every item; the other tables' phrases take
        // the items in turn, and every item follows every determiner and copula on its own, so that the model backs
        // off to "the lantern" after any phrase. Some fifty thousand sentences rather than millions.
        var sentences: [String] = []
        var turn = 0
        for table in Lexicon.PhraseTable.allCases {
            for phrase in Self.withContractions((lexicon.phrases[table] ?? []).map(Self.normalized), language: language) {
                sentences.append(phrase)
                if Self.coreTables.contains(table) {
                    // What players say most: every phrase with every item.
                    for item in itemWords {
                        for determiner in ["", "the", "a", "my"] + copulas.prefix(2).map({ "\($0) the" }) {
                            sentences.append([phrase, determiner, item].filter { !$0.isEmpty }.joined(separator: " "))
                        }
                    }
                } else if Self.itemTables.contains(table), !itemWords.isEmpty {
                    for determiner in [""] + determiners.prefix(4) + copulas.prefix(2).map({ "\($0) the" }) {
                        let item = itemWords[turn % itemWords.count]
                        turn += 1
                        sentences.append([phrase, determiner, item].filter { !$0.isEmpty }.joined(separator: " "))
                    }
                }
                if Self.numberTables.contains(table), !numbers.isEmpty {
                    let number = numbers[turn % numbers.count]
                    turn += 1
                    sentences.append("\(phrase) \(number)")
                    if let coin = gold.first { sentences.append("\(phrase) \(number) \(coin)") }
                }
            }
        }
        for item in itemWords {
            for determiner in determiners { sentences.append("\(determiner) \(item)") }
            for copula in copulas { sentences.append("\(copula) the \(item)") }
        }
        for number in numbers {
            for coin in gold.prefix(3) { sentences.append("\(number) \(coin)") }
            guard !itemWords.isEmpty else { continue }
            let item = itemWords[turn % itemWords.count]
            turn += 1
            // A plural a recogniser's dictionary lacks ("loafs") only leaves its sentence out.
            sentences.append("\(number) \(item)" + (item.contains(" ") ? "" : "s"))
        }
        for name in npcNames {
            sentences.append(name)
            for greeting in lexicon.phrases[.greeting] ?? [] { sentences.append("\(greeting) \(name)") }
            for farewell in lexicon.phrases[.farewell] ?? [] { sentences.append("\(farewell) \(name)") }
            for thanks in lexicon.phrases[.thanks] ?? [] { sentences.append("\(thanks) \(name)") }
        }
        for address in lexicon.words[.address] ?? [] {
            sentences.append(address)
            for greeting in lexicon.phrases[.greeting] ?? [] { sentences.append("\(greeting) \(address)") }
        }
        for (table, words) in lexicon.commands.sorted(by: { $0.key < $1.key }) {
            for word in words {
                sentences.append(word)
                switch table {
                case .talk: for name in npcNames { sentences.append("\(word) \(name)") }
                case .take, .drop, .examine, .give: for item in itemWords { sentences.append("\(word) \(item)") }
                case .go:
                    for words in lexicon.directions.sorted(by: { $0.key < $1.key }).map(\.value) {
                        for direction in words { sentences.append("\(word) \(direction)") }
                    }
                default: break
                }
            }
        }
        sentences += itemWords + places
        self.init(
            language: language, normalizedSentences: sentences,
            names: Self.unique(items.map(\.name) + items.flatMap(\.aliases) + npcs.map(\.name)))
    }

    /// Every word of the sentences, sorted, once each.
    public var words: [String] {
        Array(Set(sentences.flatMap { $0.split(separator: " ").map(String.init) })).sorted()
    }

    /// The phrase tables whose phrases go before an item: prices, buying, selling, bids, gifts.
    static let itemTables: Set<Lexicon.PhraseTable> = [
        .sell, .appraise, .bid, .cheaper, .gift, .buy, .want, .price, .having, .cheapest, .dearest, .howMany,
        .everything, .besides,
    ]
    /// The phrase tables whose phrases are said with every item: asking prices, buying, wanting, selling.
    static let coreTables: Set<Lexicon.PhraseTable> = [.price, .buy, .want, .sell, .howMany, .bid, .appraise]
    /// The phrase tables whose phrases go before a number: bids and prices.
    static let numberTables: Set<Lexicon.PhraseTable> = [.bid, .priceLeadIns]

    /// The number words a player says for 0 to 100: each word, and tens and units together (`twenty five`), the
    /// lexicon's amount phrases (`a dozen`), and the scales after `a` or `one` (`a hundred`).
    static func numberPhrases(_ numbers: Lexicon.Numbers) -> [String] {
        let byValue = Dictionary(grouping: numbers.words, by: \.value).mapValues { $0.map(\.key).sorted() }
        var phrases = numbers.words.keys.sorted()
        for tens in stride(from: 20, through: 90, by: 10) {
            guard let tensWord = byValue[tens]?.first else { continue }
            for unit in 1...9 { if let unitWord = byValue[unit]?.first { phrases.append("\(tensWord) \(unitWord)") } }
        }
        for scale in numbers.scales.keys.sorted() {
            for article in numbers.articles + ["one"] { phrases.append("\(article) \(scale)") }
        }
        phrases += numbers.amounts.map(\.phrase)
        return phrases.map(normalized)
    }

    /// English sentences again with the contractions a player says (`i'll`, `what's`), so that the recogniser
    /// knows both; other languages as they are.
    static func withContractions(_ sentences: [String], language: String) -> [String] {
        guard language == "en" else { return sentences }
        let contractions = [
            ("i will", "i'll"), ("i would", "i'd"), ("i am", "i'm"), ("what is", "what's"), ("that is", "that's"),
            ("it is", "it's"), ("do not", "don't"), ("you are", "you're"), ("we have", "we've"),
            ("how is", "how's"), ("where is", "where's"), ("let us", "let's"), ("i have", "i've"),
        ]
        var result = sentences
        for sentence in sentences {
            let padded = " \(sentence) "
            var contracted = padded
            for (long, short) in contractions { contracted = contracted.replacingAll(" \(long) ", with: " \(short) ") }
            if contracted != padded { result.append(String(contracted.dropFirst().dropLast())) }
        }
        return result
    }

    /// Lower case, letters, digits and apostrophes kept, everything else a word break, single spaces.
    static func normalized(_ text: String) -> String {
        text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'") }.map { word in
            String(word.drop { $0 == "'" }.reversed().drop { $0 == "'" }.reversed())
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The strings once each, in their first order.
    static func unique(_ strings: [String]) -> [String] {
        var seen = Set<String>()
        return strings.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}

extension String {
    /// The string with every occurrence of `target` replaced, scanning left to right, without Foundation.
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            // Both end with a space, kept in `rest`, so that neighbouring matches (" i will i will ") both change.
            result += replacement.dropLast()
            rest = rest[rest.index(before: range.upperBound)...]
        }
        return result + rest
    }
}
