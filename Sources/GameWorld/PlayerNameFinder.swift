/// Finds the name a player gives in a line ("my name is Tamsin", "call me Tam", "name's Wren", "I'm Wren", "Dax's the
/// name") by the lexicon's `selfName`, `selfNameCapitalised` and `selfNameAfter` phrases, and where they say they are from ("I'm from Eastmarch") by
/// its `selfOrigin` phrases. The engine remembers both for `{player}` and memory questions; the scripted model
/// answers such a line as an introduction.
public struct PlayerNameFinder: Sendable {
    /// The phrases before a name, as lowercased words.
    private let selfName: [[String]]
    /// The phrases before a name only when it is written with a capital (`I am Tamsin`, not `i am hungry`).
    private let selfNameCapitalised: [[String]]
    /// The phrases after a name ("Dax's *the name*"), as lowercased words.
    private let selfNameAfter: [[String]]
    /// The phrases before the place the player is from, as lowercased words.
    private let selfOrigin: [[String]]
    /// The speaker as a subject: `i`, `we` (the lexicon's `firstPerson`).
    private let firstPerson: Set<String>
    /// Verbs of coming from somewhere: "I *sailed* in from Port Ellis" (`travelVerbs`).
    private let travelVerbs: Set<String>
    /// The word before the place: `from` (`fromWords`).
    private let fromWords: Set<String>
    /// Words that lead to the place in a stretch of country: "from the hill farms *at* Ketterby" (`placeLinks`).
    private let placeLinks: Set<String>
    /// Words that may be a sentence's subject (`subjects`: `he`, `she`, `you`): never skipped on the way to a place.
    private let subjects: Set<String>
    /// Words that start a question (`what`, `who`): never a name before `selfNameAfter`.
    private let inquiries: Set<String>
    /// Words that end a place's name (`for`, `and`, `to`...): the lexicon's name stops.
    private let placeStops: Set<String>
    /// The one-word synonyms (`im` → `i am`), as lowercased words.
    private let synonyms: [String: [String]]
    /// Words that are never a name (`not`, `a`, `the`, `for`...): the lexicon's determiners, name stops and
    /// no-words.
    private let notNames: Set<String>
    /// Words of the lexicon's word sets, but for its `requestModals` ("I'm *May*" may be a name) and its endings
    /// (`stemEndings`: "I'm *Ed*"): never a name written with a capital after a `selfNameCapitalised` phrase ("I'm
    /// *Off* to the mill").
    private let lexiconWords: Set<String>
    /// Endings of verb forms and adjectives (`stateEndings`: `ing`, `ful`): a word ending so is no name after a
    /// `selfNameCapitalised` phrase ("I'm *Looking* for a lantern").
    private let stateEndings: [String]
    /// The phrases before what the player does for a living (`selfOccupation`: "I *work as* a scribe").
    private let selfOccupation: [[String]]
    /// The phrases after it (`selfOccupationAfter`: "I'm a cooper *by trade*").
    private let selfOccupationAfter: [[String]]
    /// Endings of words for what people do (`tradeEndings`: `er`, `smith`): "I'm a book*binder*".
    private let tradeEndings: [String]
    /// The articles an occupation may start with (`numbers.articles`: `a`, `an`).
    private let articles: Set<String>

    /// A finder for a lexicon's phrases.
    ///
    /// - Parameter lexicon: The world's lexicon.
    public init(_ lexicon: Lexicon) {
        selfName = lexicon.phrases(.selfName).map(Self.lowercasedWords).filter { !$0.isEmpty }
        selfNameCapitalised = lexicon.phrases(.selfNameCapitalised).map(Self.lowercasedWords).filter { !$0.isEmpty }
        selfOrigin = lexicon.phrases(.selfOrigin).map(Self.lowercasedWords).filter { !$0.isEmpty }
        firstPerson = Set(lexicon.words(.firstPerson).map { $0.lowercased() })
        travelVerbs = Set(lexicon.words(.travelVerbs).map { $0.lowercased() })
        fromWords = Set(lexicon.words(.fromWords).map { $0.lowercased() })
        placeLinks = Set(lexicon.words(.placeLinks).map { $0.lowercased() })
        subjects = Set(lexicon.words(.subjects).map { $0.lowercased() })
        selfNameAfter = lexicon.phrases(.selfNameAfter).map(Self.lowercasedWords).filter { !$0.isEmpty }
        inquiries = Set(lexicon.words(.inquiry).map { $0.lowercased() })
        placeStops = Set(lexicon.words(.nameStops).map { $0.lowercased() })
        synonyms = lexicon.synonyms.filter { !$0.key.contains(" ") }.mapValues(Self.lowercasedWords)
        notNames = Set(
            (lexicon.words(.determiners) + lexicon.words(.nameStops) + lexicon.words(.noWords)).map {
                $0.lowercased()
            })
        let mayBeNames = Set((lexicon.words(.requestModals) + lexicon.words(.stemEndings)).map { $0.lowercased() })
        lexiconWords = Set(Lexicon.WordSet.allCases.flatMap { lexicon.words($0) }.map { $0.lowercased() })
            .subtracting(mayBeNames)
        stateEndings = lexicon.words(.stateEndings).map { $0.lowercased() }
        selfOccupation = lexicon.phrases(.selfOccupation).map(Self.lowercasedWords).filter { !$0.isEmpty }
        selfOccupationAfter = lexicon.phrases(.selfOccupationAfter).map(Self.lowercasedWords).filter { !$0.isEmpty }
        tradeEndings = lexicon.words(.tradeEndings).map { $0.lowercased() }
        articles = Set(lexicon.numbers.articles.map { $0.lowercased() })
    }

    /// Whether a word written with a capital after a `selfNameCapitalised` phrase is a verb form, an adjective or
    /// a word of the lexicon rather than a name: "I'm *Looking* for a lantern", "I'm *Hopeful*", "I'm *Off*".
    private func isState(_ word: String) -> Bool {
        let lower = word.lowercased()
        if lexiconWords.contains(lower) { return true }
        return stateEndings.contains { lower.hasSuffix($0) && lower.count >= $0.count + 3 }
    }

    /// The name a line gives, as the player wrote it with its first letter capitalised, or `nil`: the word after
    /// a `selfName` phrase, or after a `selfNameCapitalised` phrase when written with a capital. Contractions are
    /// spelled out (`I'm` → `I am`, `name's` → `name is`) and one-word synonyms replaced first; words that cannot
    /// be names (`not`, `the`) are passed over. It is the first word of `fullName(in:)`: what the player is called by
    /// (`{player}`), "Hal" of "my name's Hal Brightwater".
    ///
    /// - Parameter line: What the player said.
    /// - Returns: The name, or `nil`.
    public func name(in line: String) -> String? {
        fullName(in: line).map(Self.calledName)
    }

    /// The first word of a full name: what the player is called by ("Hal" of "Hal Brightwater").
    ///
    /// - Parameter fullName: A name `fullName(in:)` found.
    /// - Returns: Its first word.
    public static func calledName(of fullName: String) -> String {
        String(fullName.prefix { $0 != " " })
    }

    /// The whole name a line gives, or `nil`: the name `name(in:)` finds, with the words written with a capital that
    /// follow it in its part of the sentence (between commas and stops), up to two, none of them a word of the
    /// lexicon or one that cannot be a name: "my name's *Hal Brightwater*", "I'm *Osric Fennimore*, from Carrow"; "I'm
    /// Wren From the coast" is `Wren`. Before a `selfNameAfter` phrase, the words written with a capital before the
    /// name count the same way ("*Hal Brightwater*'s the name"). A name given with no phrase, before what the player
    /// does, counts too ("*Hal Brightwater*, tinker, out of Orrin's Ford.", see `bareName(in:)`).
    ///
    /// - Parameter line: What the player said.
    /// - Returns: The name, its words joined with spaces and its first letter capitalised, or `nil`.
    public func fullName(in line: String) -> String? {
        guard !selfName.isEmpty || !selfNameCapitalised.isEmpty || !selfNameAfter.isEmpty else { return nil }
        let (words, parts) = spelledOutByPart(line)
        let lower = words.map(\.lower)
        /// Whether the word at `index` may go on a name begun in part `part`.
        func continues(_ index: Int, part: Int) -> Bool {
            guard words.indices.contains(index), parts[index] == part else { return false }
            let word = words[index].written
            return word.first?.isUppercase == true && !notNames.contains(word.lowercased()) && !isState(word)
                && !inquiries.contains(word.lowercased())
        }
        for (phrases, needsCapital) in [(selfName, false), (selfNameCapitalised, true)] {
            for phrase in phrases where phrase.count < lower.count {
                for start in 0...(lower.count - phrase.count - 1)
                where lower[start..<(start + phrase.count)].elementsEqual(phrase) {
                    let at = start + phrase.count
                    let name = words[at].written
                    guard name.first?.isLetter == true, !notNames.contains(name.lowercased()),
                        !needsCapital || (name.first?.isUppercase == true && !isState(name))
                    else { continue }
                    var end = at + 1
                    while end - at < 3, continues(end, part: parts[at]) { end += 1 }
                    let whole = words[at..<end].map(\.written).joined(separator: " ")
                    return whole.prefix(1).uppercased() + whole.dropFirst()
                }
            }
        }
        // "Dax's the name": a name written with a capital right before a `selfNameAfter` phrase, in a line that
        // asks nothing ("what's the name of this place?" gives none).
        guard line.last(where: { !$0.isWhitespace }) != "?" else { return nil }
        if let bare = bareName(in: line) { return bare }
        for phrase in selfNameAfter where phrase.count < lower.count {
            for start in 1...(lower.count - phrase.count) where Array(lower[start..<(start + phrase.count)]) == phrase {
                let name = words[start - 1].written
                guard name.first?.isUppercase == true, !notNames.contains(name.lowercased()),
                    !inquiries.contains(name.lowercased())
                else { continue }
                var first = start - 1
                while start - first < 3, continues(first - 1, part: parts[start - 1]) { first -= 1 }
                return words[first..<start].map(\.written).joined(separator: " ")
            }
        }
        return nil
    }

    /// Where a line says the player is from, as they wrote it, or `nil`: the words after a `selfOrigin` phrase ("I'm
    /// from *Eastmarch*", "I come from *the hills*"), up to three, up to the end of the sentence or a word that ends a
    /// name (`nameStops`: "I'm from Eastmarch *and* …"). A place starting with a word that cannot start one (`not`,
    /// a name stop) is none.
    ///
    /// Besides those phrases, a sentence that asks nothing and says the speaker came from a place written with a
    /// capital says it too: a `firstPerson` word, then up to five words with a `travelVerbs` word among them, then a
    /// `fromWords` word and the place ("I'm up from *Dunhollow*", "I've walked all the way from *Kettlewick*", "we
    /// sailed in from *Port Ellis*"). The place is its words written with a capital, up to three; a possessive
    /// ("from Mira's stall") is no place. A part of the sentence (between commas) that opens with a `travelVerbs` word
    /// says it too, its subject left out ("*Came down* from Ketterby"; not "He came down from Ketterby"), and the place
    /// may come after up to three words written small and a `placeLinks` word ("from the hill farms *at* Ketterby").
    ///
    /// - Parameter line: What the player said.
    /// - Returns: The place, or `nil`.
    public func origin(in line: String) -> String? {
        guard !selfOrigin.isEmpty else { return nil }
        for sentence in Self.parts(of: line, between: ".!?;,\n") {
            let words = spelledOut(sentence)
            let lower = words.map(\.lower)
            for phrase in selfOrigin where phrase.count < lower.count {
                for start in 0...(lower.count - phrase.count - 1)
                where Array(lower[start..<(start + phrase.count)]) == phrase {
                    let rest = words[(start + phrase.count)...]
                    let place = rest.prefix { !placeStops.contains($0.lower) }.prefix(3)
                    guard let first = place.first, !notNames.contains(first.lower) || first.lower == "the" else {
                        continue
                    }
                    return place.map(\.written).joined(separator: " ")
                }
            }
        }
        return travelledFrom(in: line)
    }

    /// What a line says the player does for a living, as they wrote it, or `nil`:
    /// - the words after a `selfOccupation` phrase ("I work as *a scribe*", "my trade is *smithing*"), an article
    ///   kept, up to three, up to a word that ends a name (`nameStops`);
    /// - the words before a `selfOccupationAfter` phrase back to an article or a `selfNameCapitalised` phrase, up to
    ///   three ("I'm *a cooper* by trade");
    /// - a part of a sentence set off by a comma right after the one that gives the player's name, when it starts
    ///   with an article ("I'm Ysolde, *a bookbinder* from Carrow");
    /// - a `selfNameCapitalised` phrase, an article and one or two words ending the part of the sentence or followed by
    ///   a name stop, a `fromWords` or a `travelVerbs` word, the last of five letters or more ending with a
    ///   `tradeEndings` ending ("I'm *a tanner* from the coast", "I'm *a thatcher* up from Millbrook"; not "I'm a bit
    ///   lost").
    ///
    /// - Parameter line: What the player said.
    /// - Returns: The occupation, or `nil`.
    public func occupation(in line: String) -> String? {
        guard !selfOccupation.isEmpty || !selfOccupationAfter.isEmpty || !tradeEndings.isEmpty else { return nil }
        for sentence in Self.parts(of: line, between: ".!?;\n") {
            let parts = Self.parts(of: sentence, between: ",").map(spelledOut)
            for (index, part) in parts.enumerated() {
                if let found = occupation(inPart: part) { return found }
                // "I'm Ysolde, a bookbinder from Carrow": an article right after the part that gives the name.
                if index > 0, let article = part.first, articles.contains(article.lower),
                    name(in: parts[index - 1].map(\.written).joined(separator: " ")) != nil
                {
                    let rest = part.dropFirst().prefix { !placeStops.contains($0.lower) }.prefix(3)
                    if !rest.isEmpty { return ([article] + rest).map(\.written).joined(separator: " ") }
                }
            }
        }
        return nil
    }

    /// The occupation one part of a sentence (between commas) gives by a phrase or an ending; see `occupation(in:)`.
    private func occupation(inPart words: [(written: String, lower: String)]) -> String? {
        let lower = words.map(\.lower)
        func matches(_ phrase: [String], at start: Int) -> Bool {
            start >= 0 && start + phrase.count <= lower.count
                && lower[start..<(start + phrase.count)].elementsEqual(phrase)
        }
        for phrase in selfOccupation {
            for start in lower.indices where matches(phrase, at: start) {
                var rest = words[(start + phrase.count)...]
                let article = rest.first.flatMap { articles.contains($0.lower) ? $0 : nil }
                if article != nil { rest = rest.dropFirst() }
                let found = rest.prefix { !placeStops.contains($0.lower) && !notNames.contains($0.lower) }.prefix(3)
                guard !found.isEmpty else { continue }
                return ((article.map { [$0] } ?? []) + found).map(\.written).joined(separator: " ")
            }
        }
        for phrase in selfOccupationAfter {
            for end in lower.indices where matches(phrase, at: end) {
                // Back from the phrase to an article (kept) or to a `selfNameCapitalised` phrase (left out).
                var start = end
                while start > 0, end - start < 3 {
                    if articles.contains(lower[start - 1]) {
                        start -= 1
                        return words[start..<end].map(\.written).joined(separator: " ")
                    }
                    if selfNameCapitalised.contains(where: { matches($0, at: start - $0.count) }) { break }
                    start -= 1
                }
                let opened = selfNameCapitalised.contains { matches($0, at: start - $0.count) }
                if opened, start < end { return words[start..<end].map(\.written).joined(separator: " ") }
            }
        }
        // "I'm a bookbinder", "I'm an iron smith": a word for what people do after an article.
        for phrase in selfNameCapitalised {
            for start in lower.indices where matches(phrase, at: start) {
                let after = start + phrase.count
                guard after < lower.count, articles.contains(lower[after]) else { continue }
                for count in [1, 2] where after + count < lower.count {
                    let end = after + 1 + count
                    guard end == lower.count || placeStops.contains(lower[end]) || fromWords.contains(lower[end])
                        || travelVerbs.contains(lower[end])
                    else { continue }
                    let last = lower[end - 1]
                    if last.count >= 5, tradeEndings.contains(where: { last.hasSuffix($0) }),
                        !lower[(after + 1)..<end].contains(where: { placeStops.contains($0) || notNames.contains($0) })
                    {
                        return words[after..<end].map(\.written).joined(separator: " ")
                    }
                }
            }
        }
        return nil
    }

    /// The place a sentence says the speaker came from ("I sailed in from Port Ellis"), or `nil`; see `origin(in:)`.
    private func travelledFrom(in line: String) -> String? {
        guard !firstPerson.isEmpty, !travelVerbs.isEmpty, !fromWords.isEmpty else { return nil }
        var rest = Substring(line)
        while !rest.isEmpty {
            let end = rest.firstIndex(where: { ".!?;\n".contains($0) }) ?? rest.endIndex
            let sentence = rest[..<end]
            let asks = end < rest.endIndex && rest[end] == "?"
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
            guard !asks else { continue }
            let (words, parts) = spelledOutByPart(String(sentence), between: ",:")
            for (index, word) in words.enumerated() where fromWords.contains(word.lower) {
                let lead = words[max(0, index - 6)..<index]
                // (The part's first word: "Came down from Ketterby" leaves out its subject.)
                let opening = parts.firstIndex(of: parts[index]) ?? index
                let said =
                    lead.lastIndex(where: { firstPerson.contains($0.lower) }).map { subject in
                        words[(subject + 1)..<index].contains(where: { travelVerbs.contains($0.lower) })
                    } ?? false
                let opens =
                    opening < index && index - opening <= 4 && travelVerbs.contains(words[opening].lower)
                    && !words[opening..<index].contains(where: { subjects.contains($0.lower) })
                guard said || opens else { continue }
                var at = index + 1
                // "From the hill farms at Ketterby": up to three words written small, then a `placeLinks` word.
                if at < words.count, words[at].written.first?.isUppercase != true,
                    let link = (at..<min(words.count, at + 4)).first(where: { placeLinks.contains(words[$0].lower) }),
                    link + 1 < words.count, parts[link + 1] == parts[index],
                    words[at..<link].allSatisfy({
                        $0.written.first?.isUppercase != true && !subjects.contains($0.lower)
                            && !firstPerson.contains($0.lower)
                    })
                {
                    at = link + 1
                }
                guard at < words.count, parts[at] == parts[index] else { continue }
                let place = words.indices[at...].prefix {
                    words[$0].written.first?.isUppercase == true && !placeStops.contains(words[$0].lower)
                        && parts[$0] == parts[at]
                }.prefix(3).map { words[$0] }
                guard let first = place.first, !notNames.contains(first.lower), !firstPerson.contains(first.lower),
                    !possessive(after: first.written, in: String(sentence))
                else { continue }
                return place.map(\.written).joined(separator: " ")
            }
        }
        return nil
    }

    /// Whether `word` is written with `'s` after it in the sentence ("Mira's"): a possessive, no place.
    private func possessive(after word: String, in sentence: String) -> Bool {
        sentence.contains(word + "'s") || sentence.contains(word + "\u{2019}s")
    }

    /// A phrase's lowercased words: letters and digits.
    private static func lowercasedWords(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    /// A name given with no phrase, as a player introduces themself in a few words: a sentence, in a line that asks
    /// nothing, that opens with two or three words written with a capital, none a word of the lexicon or one that
    /// cannot be a name, set off by a comma, then a part of one word written small for what the player does (five
    /// letters or more, ending with a `tradeEndings` ending): "*Hal Brightwater*, tinker, out of Orrin's Ford."
    private func bareName(in line: String) -> String? {
        guard !line.contains("?"), !tradeEndings.isEmpty else { return nil }
        for sentence in Self.parts(of: line, between: ".!;\n") {
            let parts = Self.parts(of: sentence, between: ",:").map(spelledOut)
            guard parts.count >= 2, (2...3).contains(parts[0].count), parts[1].count == 1 else { continue }
            let trade = parts[1][0]
            guard trade.written.first?.isLowercase == true, trade.lower.count >= 5,
                tradeEndings.contains(where: { trade.lower.hasSuffix($0) }), !lexiconWords.contains(trade.lower),
                parts[0].allSatisfy({ word in
                    word.written.first?.isUppercase == true && !notNames.contains(word.lower) && !isState(word.written)
                        && !inquiries.contains(word.lower)
                })
            else { continue }
            return parts[0].map(\.written).joined(separator: " ")
        }
        return nil
    }

    /// `spelledOut(_:)`, with the part of the line (between commas, colons and stops) each word is in: the same words,
    /// as the separators are no part of a word.
    private func spelledOutByPart(
        _ line: String, between separators: String = ".!?;,:\n"
    ) -> (words: [(written: String, lower: String)], parts: [Int]) {
        var words: [(written: String, lower: String)] = []
        var parts: [Int] = []
        for (index, part) in Self.parts(of: line, between: separators).enumerated() {
            let spelled = spelledOut(part)
            words += spelled
            parts += Array(repeating: index, count: spelled.count)
        }
        return (words, parts)
    }

    /// A line's words as written, contractions spelled out and one-word synonyms replaced, each with its lowercased
    /// form.
    private func spelledOut(_ line: String) -> [(written: String, lower: String)] {
        let suffixes = ["m": "am", "s": "is", "re": "are", "ll": "will", "d": "would", "ve": "have"]
        var words: [(written: String, lower: String)] = []
        for parts in Self.tokens(of: line) {
            guard let base = parts.first else { continue }
            if parts.count == 1, let replacement = synonyms[base.lowercased()] {
                words += replacement.map { ($0, $0) }
                continue
            }
            words.append((base, base.lowercased()))
            if parts.count == 2, let spelled = suffixes[parts[1].lowercased()] { words.append((spelled, spelled)) }
        }
        return words
    }

    /// A line's tokens, runs of letters, digits and apostrophes, each split at its apostrophes: `Dax's` is `["Dax",
    /// "s"]`. Every line the player says is read so several times a turn, so a line of ASCII is read byte by byte
    /// (the same tokens: an ASCII letter or digit is exactly what `isLetter` and `isNumber` accept there); any other
    /// line by its characters.
    static func tokens(of line: String) -> [[String]] {
        let utf8 = line.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return characterTokens(of: line) }
        func isWordByte(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        return utf8.split(whereSeparator: { !isWordByte($0) && $0 != UInt8(ascii: "'") }).map { token in
            token.split(separator: UInt8(ascii: "'")).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// A line's parts between the `separators` (sentences, or clauses), the empty ones left out. A line of ASCII
    /// without a carriage return (which joins a following line feed into one character) is split byte by byte, any
    /// other by its characters: the same parts, faster.
    static func parts(of line: String, between separators: String) -> [String] {
        let utf8 = line.utf8
        guard utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }), separators.utf8.allSatisfy({ $0 < 0x80 }) else {
            return line.split(whereSeparator: { separators.contains($0) }).map(String.init)
        }
        let bytes = Set(separators.utf8)
        return utf8.split(whereSeparator: bytes.contains).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `tokens(of:)` read by characters, for any line.
    static func characterTokens(of line: String) -> [[String]] {
        let apostrophes: Set<Character> = ["'", "\u{2019}"]
        return line.split(whereSeparator: { !$0.isLetter && !$0.isNumber && !apostrophes.contains($0) }).map {
            $0.split(whereSeparator: { apostrophes.contains($0) }).map(String.init)
        }
    }
}

extension World {
    /// A `PlayerNameFinder` for the world's lexicon, built once for the copies of a world (each game of a server, each
    /// case of `parley eval`, builds its conversations' indexes from it); a copy whose lexicon was changed gets one of
    /// its own.
    public var playerNameFinder: PlayerNameFinder {
        let built = catalogDerived { BuiltNameFinder(lexicon: $0.lexicon, finder: PlayerNameFinder($0.lexicon)) }
        return built.lexicon == lexicon ? built.finder : PlayerNameFinder(lexicon)
    }
}

/// A `PlayerNameFinder` and the lexicon it was built for.
private struct BuiltNameFinder: Sendable {
    let lexicon: Lexicon
    let finder: PlayerNameFinder
}
