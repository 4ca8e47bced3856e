/// A line of text as words the scripted model matches: lowercased, without punctuation, contractions spelled out.
///
/// `"I'll take Mira's lantern, 20g!"` becomes `i will take mira lantern 20 g`. Phrases match whole words in a row;
/// a word of the line also matches a phrase word it is the plural of (`lanterns` matches `lantern`, `loaves`
/// matches `loaf`), but not the other way round, so the phrase `goods` never matches the word `good`.
struct Words: Sendable, Equatable {
    /// The words in order.
    let tokens: [String]
    /// Each word's possible singular forms (`Words.singulars(of:)`), worked out once: a line is matched against
    /// hundreds of phrases.
    private let singularForms: [[String]]
    /// Every word and singular form in the line, so that a phrase whose first word is not among them is passed over
    /// at once.
    private let forms: Set<String>

    /// The words of a text.
    ///
    /// - Parameter text: What the player said, a keyword or an item's name.
    init(_ text: String) {
        self.init(tokens: Words.tokenize(text))
    }

    /// Words already split.
    init(tokens: [String]) {
        self.tokens = tokens
        singularForms = tokens.map(Words.singulars(of:))
        forms = Set(tokens).union(singularForms.joined())
    }

    /// Words are equal when their words are.
    static func == (lhs: Words, rhs: Words) -> Bool { lhs.tokens == rhs.tokens }

    /// Whether there are no words.
    var isEmpty: Bool { tokens.isEmpty }

    /// The number of words.
    var count: Int { tokens.count }

    // MARK: - Matching

    /// Whether the line holds the phrase somewhere.
    func contains(_ phrase: Words) -> Bool { firstIndex(of: phrase) != nil }

    /// Whether the line holds any of the phrases.
    func containsAny(_ phrases: [Words]) -> Bool { phrases.contains { contains($0) } }

    /// Where the earliest of the phrases starts, or `nil` when none is in the line.
    func firstIndex(ofAny phrases: [Words]) -> Int? { phrases.compactMap { firstIndex(of: $0) }.min() }

    /// Where the phrase first starts in the line, at or after `start`.
    func firstIndex(of phrase: Words, from start: Int = 0) -> Int? {
        guard !phrase.isEmpty, phrase.count <= tokens.count, start <= tokens.count - phrase.count,
            forms.contains(phrase.tokens[0])
        else { return nil }
        for index in start...(tokens.count - phrase.count) where matches(phrase, at: index) { return index }
        return nil
    }

    /// Whether the phrase starts exactly at `index`.
    func matches(_ phrase: Words, at index: Int) -> Bool {
        guard index >= 0, index + phrase.count <= tokens.count, !phrase.isEmpty else { return false }
        for (offset, word) in phrase.tokens.enumerated()
        where tokens[index + offset] != word && !singularForms[index + offset].contains(word) {
            return false
        }
        return true
    }

    /// Whether a word of a line matches a word of a phrase: the same, or a plural of it.
    static func word(_ lineWord: String, matches phraseWord: String) -> Bool {
        lineWord == phraseWord || singulars(of: lineWord).contains(phraseWord)
    }

    /// The word's possible singular forms: `loaves` → `loaf`, `loave`; `candles` → `candle`; `berries` → `berry`.
    static func singulars(of word: String) -> [String] {
        // Most words do not end in "s": known from the last byte, before counting characters.
        guard word.utf8.last == UInt8(ascii: "s"), word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") else {
            return []
        }
        var forms: [String] = [String(word.dropLast())]
        if word.hasSuffix("es") { forms.append(String(word.dropLast(2))) }
        if word.hasSuffix("ies") { forms.append(String(word.dropLast(3)) + "y") }
        if word.hasSuffix("ves") {
            forms.append(String(word.dropLast(3)) + "f")
            forms.append(String(word.dropLast(3)) + "fe")
        }
        return forms
    }

    // MARK: - Splitting

    /// Contractions whose `'s` means `is` (`what's` → `what is`); on other words it is a possessive and dropped.
    private static let isContractions: Set<String> = [
        "it", "that", "what", "who", "where", "how", "here", "there", "he", "she", "this", "when", "why", "name",
    ]

    /// Splits text into lowercase words: letters and digits, apostrophes inside words for contractions; digits
    /// and letters are split apart (`20g` → `20 g`).
    static func tokenize(_ text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return tokenizeASCII(text) }
        var raw: [String] = []
        var current = ""
        var currentIsDigits = false
        func flush() {
            if !current.isEmpty { raw.append(current) }
            current = ""
        }
        for character in text.lowercased() {
            if character == "'" || character == "\u{2019}" || character == "\u{2018}" {
                if !current.isEmpty, !currentIsDigits { current.append("'") }
                continue
            }
            if character.isLetter || character.isNumber {
                let isDigit = character.isASCII && character.isNumber
                if !current.isEmpty, isDigit != currentIsDigits, !current.hasSuffix("'") { flush() }
                if current.isEmpty { currentIsDigits = isDigit }
                current.append(character)
            } else {
                flush()
            }
        }
        flush()
        return raw.flatMap(expand)
    }

    /// `tokenize(_:)` for ASCII text, byte by byte: the same words, without the cost of Unicode character
    /// properties (item names are read by the thousand when a catalog is indexed).
    private static func tokenizeASCII(_ text: String) -> [String] {
        let apostrophe = UInt8(ascii: "'")
        var words: [String] = []
        var current: [UInt8] = []
        var currentIsDigits = false
        func flush() {
            // Only a word with an apostrophe can be a contraction to spell out.
            if current.contains(apostrophe) {
                words += expand(String(decoding: current, as: UTF8.self))
            } else if !current.isEmpty {
                words.append(String(decoding: current, as: UTF8.self))
            }
            current.removeAll(keepingCapacity: true)
        }
        for var byte in text.utf8 {
            if byte == apostrophe {
                if !current.isEmpty, !currentIsDigits { current.append(apostrophe) }
                continue
            }
            if (0x41...0x5A).contains(byte) { byte += 0x20 }
            let isDigit = (0x30...0x39).contains(byte)
            if isDigit || (0x61...0x7A).contains(byte) {
                if !current.isEmpty, isDigit != currentIsDigits, current.last != apostrophe { flush() }
                if current.isEmpty { currentIsDigits = isDigit }
                current.append(byte)
            } else {
                flush()
            }
        }
        flush()
        return words
    }

    /// Spells out a contraction: `i'll` → `i will`, `can't` → `can not`, `mira's` → `mira`.
    private static func expand(_ token: String) -> [String] {
        var word = token
        while word.hasPrefix("'") { word.removeFirst() }
        while word.hasSuffix("'") { word.removeLast() }
        guard let apostrophe = word.firstIndex(of: "'") else { return word.isEmpty ? [] : [word] }
        let base = String(word[..<apostrophe])
        let suffix = String(word[word.index(after: apostrophe)...]).replacingOccurrences(of: "'", with: "")
        switch (base, suffix) {
        case ("won", "t"): return ["will", "not"]
        case ("can", "t"): return ["can", "not"]
        case ("shan", "t"): return ["shall", "not"]
        case ("let", "s"): return ["let", "us"]
        case ("y", "all"): return ["you", "all"]
        default: break
        }
        if suffix == "t", base.hasSuffix("n") { return [String(base.dropLast()), "not"] }
        switch suffix {
        case "ll": return [base, "will"]
        case "d": return [base, "would"]
        case "re": return [base, "are"]
        case "ve": return [base, "have"]
        case "m": return [base, "am"]
        case "s": return isContractions.contains(base) ? [base, "is"] : [base]
        default: return [base + suffix].filter { !$0.isEmpty }
        }
    }
}
