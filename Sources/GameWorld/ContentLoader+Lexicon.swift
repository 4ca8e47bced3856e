import ParleyBasics
import ParleyJSON

// MARK: - lexicon.json

extension ContentLoader {
    /// The language tags of the built-in lexicons a pack's `extends` may name.
    static let builtInLexiconTags = ["en"]

    /// The built-in lexicon of a language tag.
    static func builtInLexicon(_ tag: String) -> Lexicon? { tag == "en" ? Lexicon.english : nil }

    /// Reads a lexicon document (`lexicon.json`, or the built-in English table).
    ///
    /// Without `extends`, the document is the whole lexicon: a table it leaves out is empty, a priority it leaves out
    /// tries every check in the built-in order, and limits it leaves out keep their English sizes. With
    /// `"extends": "en"`, it starts from the built-in English lexicon: phrases, words and category words are added
    /// to its own, synonyms and number words added or replaced, and a priority or limit given replaces its own.
    ///
    /// - Parameter value: The parsed document.
    /// - Returns: The lexicon, or `nil` after reporting why it cannot be used.
    mutating func decodeLexicon(_ value: JSONValue) -> Lexicon? {
        guard let object = object(value, at: .root, what: "the lexicon") else { return nil }
        let root = JSONPath.root
        unknownFields(
            object, at: root,
            known: [
                "language", "extends", "priority", "phrases", "words", "synonyms", "categories", "numbers", "limits",
            ])
        let errorsBefore = errorCount
        let language = string("language", in: object, at: root, required: true)
        if let language, !Self.isLanguageTag(language) {
            error(
                root.key("language"), "\"\(language)\" is not a language tag",
                hint: "write a BCP 47 tag such as en, de or pt-BR")
        }
        var lexicon = Lexicon(language: language ?? "und")
        if let base = string("extends", in: object, at: root, required: false) {
            if let builtIn = Self.builtInLexicon(base) {
                lexicon = builtIn
                lexicon.language = language ?? lexicon.language
            } else {
                let known = Self.builtInLexiconTags
                error(
                    root.key("extends"), "no built-in lexicon \"\(base)\"",
                    hint: "built in: " + known.joined(separator: ", ") + "; leave extends out to write a whole lexicon")
            }
        }
        if let checks = array("priority", in: object, at: root, required: false) {
            lexicon.priority = lexiconPriority(checks, at: root.key("priority"))
        }
        if let tables = self.object("phrases", in: object, at: root, required: false, what: "phrase tables") {
            for (name, list) in tables {
                let path = root.key("phrases").key(name)
                guard let table = Lexicon.PhraseTable(rawValue: name) else {
                    unknownName(name, at: path, kind: "phrase table", known: Lexicon.PhraseTable.allCases.map(\.rawValue))
                    continue
                }
                lexicon.phrases[table] = Self.union(lexicon.phrases(table), lexiconStrings(list, at: path, words: nil))
            }
        }
        if let sets = self.object("words", in: object, at: root, required: false, what: "word sets") {
            for (name, list) in sets {
                let path = root.key("words").key(name)
                guard let set = Lexicon.WordSet(rawValue: name) else {
                    unknownName(name, at: path, kind: "word set", known: Lexicon.WordSet.allCases.map(\.rawValue))
                    continue
                }
                lexicon.words[set] = Self.union(lexicon.words(set), lexiconStrings(list, at: path, words: 1))
            }
        }
        if let synonyms = self.object("synonyms", in: object, at: root, required: false, what: "synonyms") {
            for (word, meaning) in synonyms {
                let path = root.key("synonyms").key(word)
                guard Self.wordCount(word) > 0 else {
                    error(path, "a synonym is a word or a phrase, found \(Self.quoted(word))")
                    continue
                }
                guard case .string(let text) = meaning, Self.wordCount(text) > 0 else {
                    error(path, "expected the words it stands for, found \(Self.describe(meaning))")
                    continue
                }
                lexicon.synonyms[word.lowercased()] = text.lowercased()
            }
        }
        if let categories = self.object("categories", in: object, at: root, required: false, what: "category words") {
            for (category, list) in categories {
                let path = root.key("categories").key(category)
                lexicon.categories[category] = Self.union(
                    lexicon.categories[category] ?? [], lexiconStrings(list, at: path, words: nil))
            }
        }
        if let numbers = self.object("numbers", in: object, at: root, required: false, what: "number words") {
            lexiconNumbers(numbers, at: root.key("numbers"), into: &lexicon.numbers)
        }
        if let limits = self.object("limits", in: object, at: root, required: false, what: "limits") {
            let path = root.key("limits")
            let fields: [(name: String, limit: WritableKeyPath<Lexicon.Limits, Int>)] = [
                ("shortLine", \.shortLine), ("shortAnswer", \.shortAnswer), ("choiceLine", \.choiceLine),
                ("largestQuantity", \.largestQuantity), ("shortestSwapMended", \.shortestSwapMended),
                ("shortestEditMended", \.shortestEditMended),
            ]
            unknownFields(limits, at: path, known: fields.map(\.name))
            for field in fields {
                if let value = integer(field.name, in: limits, at: path, required: false, range: 0...100) {
                    lexicon.limits[keyPath: field.limit] = value
                }
            }
        }
        return errorCount == errorsBefore ? lexicon : nil
    }

    /// Warns about category words for categories no item of the pack has.
    mutating func checkLexiconCategories(_ lexicon: Lexicon, explicit: Set<String>) {
        for category in explicit.sorted() where !categories.contains(category) {
            warning(
                JSONPath.root.key("categories").key(category), "no item has the category \"\(category)\"",
                hint: Suggestions.closest(to: category, in: categories.sorted()).map { "did you mean \"\($0)\"?" })
        }
    }

    // MARK: Parts

    /// The checks of `priority`, each once.
    private mutating func lexiconPriority(_ elements: [JSONValue], at path: JSONPath) -> [Lexicon.Check] {
        var checks: [Lexicon.Check] = []
        let known = Lexicon.Check.allCases.map(\.rawValue)
        for (index, element) in elements.enumerated() {
            let elementPath = path.index(index)
            guard case .string(let name) = element else {
                error(elementPath, "expected a check's name, found \(Self.describe(element))")
                continue
            }
            guard let check = Lexicon.Check(rawValue: name) else {
                let hint =
                    Suggestions.closest(to: name, in: known).map { "did you mean \"\($0)\"?" }
                    ?? "the checks: " + known.joined(separator: ", ")
                error(elementPath, "unknown check \"\(name)\"", hint: hint)
                continue
            }
            if checks.contains(check) {
                error(elementPath, "\"\(name)\" is listed twice", hint: "each check runs once, where it first stands")
                continue
            }
            checks.append(check)
        }
        return checks
    }

    /// A list of phrases (or, with `words: 1`, single words), lowercased; bad entries are reported and left out.
    private mutating func lexiconStrings(_ value: JSONValue, at path: JSONPath, words: Int?) -> [String] {
        guard case .array(let elements) = value else {
            error(path, "expected an array of strings, found \(Self.describe(value))")
            return []
        }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.index(index)
            guard case .string(let text) = element else {
                error(elementPath, "expected a string, found \(Self.describe(element))")
                continue
            }
            let count = Self.wordCount(text)
            if count == 0 {
                error(elementPath, "\(Self.quoted(text)) has no words", hint: "phrases are matched as words")
                continue
            }
            if let words, count != words {
                error(elementPath, "expected one word, found \(Self.quoted(text))", hint: "put phrases in \"phrases\"")
                continue
            }
            if result.contains(text.lowercased()) {
                warning(elementPath, "\(Self.quoted(text)) is listed twice")
                continue
            }
            result.append(text.lowercased())
        }
        return result
    }

    /// Reads `numbers` into the number words (adding to what is there).
    private mutating func lexiconNumbers(_ object: JSONObject, at path: JSONPath, into numbers: inout Lexicon.Numbers) {
        unknownFields(object, at: path, known: ["words", "scales", "joiners", "articles", "amounts"])
        for (key, minimum) in [("words", 0), ("scales", 2)] {
            guard let table = self.object(key, in: object, at: path, required: false, what: "words and values") else {
                continue
            }
            for (word, _) in table {
                let wordPath = path.key(key)
                guard Self.wordCount(word) == 1 else {
                    error(wordPath.key(word), "expected one word, found \(Self.quoted(word))")
                    continue
                }
                guard let value = integer(word, in: table, at: wordPath, required: true, range: minimum...1_000_000)
                else { continue }
                if key == "words" { numbers.words[word.lowercased()] = value } else {
                    numbers.scales[word.lowercased()] = value
                }
            }
        }
        if let joiners = object["joiners"] {
            numbers.joiners = Self.union(numbers.joiners, lexiconStrings(joiners, at: path.key("joiners"), words: 1))
        }
        if let articles = object["articles"] {
            numbers.articles = Self.union(
                numbers.articles, lexiconStrings(articles, at: path.key("articles"), words: 1))
        }
        guard let amounts = array("amounts", in: object, at: path, required: false) else { return }
        var added: [Lexicon.Amount] = []
        for (index, element) in amounts.enumerated() {
            let amountPath = path.key("amounts").index(index)
            guard let amount = self.object(element, at: amountPath, what: "an amount") else { continue }
            unknownFields(amount, at: amountPath, known: ["phrase", "value", "gold"])
            let phrase = string("phrase", in: amount, at: amountPath, required: true)
            let value = integer("value", in: amount, at: amountPath, required: true, range: 0...1_000_000)
            let gold = bool("gold", in: amount, at: amountPath) ?? false
            guard let phrase, let value else { continue }
            guard Self.wordCount(phrase) > 0 else {
                error(amountPath.key("phrase"), "\(Self.quoted(phrase)) has no words")
                continue
            }
            added.append(Lexicon.Amount(phrase: phrase.lowercased(), value: value, isGold: gold))
        }
        let phrases = Set(added.map(\.phrase))
        numbers.amounts = added + numbers.amounts.filter { !phrases.contains($0.phrase) }
    }

    /// Reports a table or set name that does not exist.
    private mutating func unknownName(_ name: String, at path: JSONPath, kind: String, known: [String]) {
        let hint =
            Suggestions.closest(to: name, in: known).map { "did you mean \"\($0)\"?" }
            ?? "known: " + known.joined(separator: ", ")
        error(path, "unknown \(kind) \"\(name)\"", hint: hint)
    }

    /// The number of words in a text, as the scripted model splits them (letters and digits).
    static func wordCount(_ text: String) -> Int {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).count
    }

    /// `first` and then what `second` adds, without repeats.
    static func union(_ first: [String], _ second: [String]) -> [String] {
        var seen = Set(first)
        return first + second.filter { seen.insert($0).inserted }
    }

    /// Whether a text looks like a BCP 47 tag: subtags of 1 to 8 letters and digits joined by `-`, the first
    /// made of 2 to 3 letters.
    static func isLanguageTag(_ text: String) -> Bool {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter),
            first.allSatisfy(\.isASCII)
        else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
