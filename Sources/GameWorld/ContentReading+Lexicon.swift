import ParleyBasics
import ParleyJSON

// MARK: - lexicon.json

extension ContentReading {
    /// The language tags of the built-in lexicons a pack's `extends` may name.
    package static var builtInLexiconTags: [String] { Lexicon.builtInLanguages }

    /// The built-in lexicon of a language tag (exactly as `extends` writes it).
    package static func builtInLexicon(_ tag: String) -> Lexicon? {
        builtInLexiconTags.contains(tag) ? Lexicon.builtIn(tag) : nil
    }

    /// Reads a lexicon document (`lexicon.json`, or the built-in English table).
    ///
    /// Without `extends`, the document is the whole lexicon: a table it leaves out is empty, a priority it leaves out
    /// tries every check in the built-in order, and limits it leaves out keep their English sizes. With
    /// `"extends": "en"`, it starts from the built-in English lexicon: phrases, words and category words are added
    /// to its own, synonyms and number words added or replaced, and a priority or limit given replaces its own.
    ///
    /// `commands`, `directions`, `lines` and `texts` are the game's and the NPCs' words in the language: with
    /// `extends`, command and direction words are added, lines (by rule id) and texts replaced; without it, what the
    /// document leaves out is English (`reference`), and a lexicon in another language is warned about each part it
    /// leaves out.
    ///
    /// - Parameters:
    ///   - value: The parsed document.
    ///   - reference: The built-in English lexicon, whose built-in lines name the rule ids a lexicon may give lines
    ///     for and whose commands, lines and texts a whole lexicon falls back to; `nil` while reading that lexicon
    ///     itself.
    /// - Returns: The lexicon, or `nil` after reporting why it cannot be used.
    package mutating func decodeLexicon(_ value: JSONValue, reference: Lexicon? = .english) -> Lexicon? {
        guard let object = object(value, at: .root, what: "the lexicon") else { return nil }
        let root = JSONPath.root
        unknownFields(
            object, at: root,
            known: [
                "language", "extends", "priority", "phrases", "words", "synonyms", "categories", "numbers", "limits",
                "commands", "directions", "lines", "texts",
            ])
        let errorsBefore = errorCount
        let language = string("language", in: object, at: root, required: true)
        if let language, !Self.isLanguageTag(language) {
            error(
                root.key("language"), "\"\(language)\" is not a language tag",
                hint: "write a BCP 47 tag such as en, de or pt-BR")
        }
        var lexicon = Lexicon(language: language ?? "und")
        var extends = false
        if let reference {
            // A whole lexicon's game and NPC words fall back to English.
            lexicon.commands = reference.commands
            lexicon.directions = reference.directions
            lexicon.lines = reference.lines
            lexicon.texts = reference.texts
        }
        if let base = string("extends", in: object, at: root, required: false) {
            if let builtIn = Self.builtInLexicon(base) {
                lexicon = builtIn
                lexicon.language = language ?? lexicon.language
                extends = true
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
                    unknownName(
                        name, at: path, kind: "phrase table", known: Lexicon.PhraseTable.allCases.map(\.rawValue))
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
        lexiconLanguageParts(object, into: &lexicon, extends: extends, reference: reference)
        return errorCount == errorsBefore ? lexicon : nil
    }

    /// Reads `commands`, `directions`, `lines` and `texts` into the lexicon, and warns about the parts a whole
    /// lexicon in another language than English leaves to English.
    private mutating func lexiconLanguageParts(
        _ object: JSONObject, into lexicon: inout Lexicon, extends: Bool, reference: Lexicon?
    ) {
        let root = JSONPath.root
        var given:
            (commands: Set<Lexicon.CommandTable>, directions: Set<String>, lines: Set<String>, texts: Set<Lexicon.Text>) =
                ([], [], [], [])
        if let tables = self.object("commands", in: object, at: root, required: false, what: "command words") {
            for (name, list) in tables {
                let path = root.key("commands").key(name)
                guard let table = Lexicon.CommandTable(rawValue: name) else {
                    unknownName(
                        name, at: path, kind: "command table", known: Lexicon.CommandTable.allCases.map(\.rawValue))
                    continue
                }
                let single = [.articles, .particles].contains(table) ? 1 : nil
                let read = lexiconStrings(list, at: path, words: single)
                lexicon.commands[table] = extends ? Self.union(lexicon.commands(table), read) : read
                given.commands.insert(table)
            }
        }
        if let directions = self.object("directions", in: object, at: root, required: false, what: "direction words") {
            for (name, list) in directions {
                let path = root.key("directions").key(name)
                guard Self.wordCount(name) > 0 else {
                    error(path, "a direction is a word, found \(Self.quoted(name))")
                    continue
                }
                let key = name.lowercased()
                let read = lexiconStrings(list, at: path, words: nil)
                lexicon.directions[key] = extends ? Self.union(lexicon.directions[key] ?? [], read) : read
                given.directions.insert(key)
            }
        }
        if let lines = self.object("lines", in: object, at: root, required: false, what: "built-in lines") {
            let known = reference.map { Array($0.lines.keys).sorted() }
            for (id, entry) in lines {
                let path = root.key("lines").key(id)
                if let known, !known.contains(id) {
                    unknownName(id, at: path, kind: "built-in rule", known: known)
                    continue
                }
                guard let rule = self.object(entry, at: path, what: "a rule's lines") else { continue }
                if let read = lexiconLines(rule, at: path) {
                    lexicon.lines[id] = read
                    given.lines.insert(id)
                }
            }
        }
        if let texts = self.object("texts", in: object, at: root, required: false, what: "texts") {
            for (name, value) in texts {
                let path = root.key("texts").key(name)
                guard let key = Lexicon.Text(rawValue: name) else {
                    unknownName(name, at: path, kind: "text", known: Lexicon.Text.allCases.map(\.rawValue))
                    continue
                }
                guard case .string(let text) = value, !text.allSatisfy(\.isWhitespace) else {
                    error(path, "expected a text, found \(Self.describe(value))")
                    continue
                }
                if let unknown = Self.textPlaceholders(text).first(where: { !key.placeholders.contains($0) }) {
                    let allowed = key.placeholders.map { "{\($0)}" }.joined(separator: ", ")
                    error(
                        path, "unknown placeholder {\(unknown)} in the text \"\(name)\"",
                        hint: key.placeholders.isEmpty ? "this text has no placeholders" : "it may use \(allowed)")
                    continue
                }
                lexicon.texts[key] = text
                given.texts.insert(key)
            }
        }
        // A whole lexicon in another language: say what stays English.
        guard !extends, let reference, !Lexicon.sameLanguage(lexicon.language, reference.language) else { return }
        // Only the tags: loading the built-in lexicon here would load the one being read.
        let builtIn = Self.builtInLexiconTags.first { Lexicon.sameLanguage($0, lexicon.language) }
        let start =
            builtIn.map { "add \"extends\": \"\($0)\" to start from the built-in lexicon, or write them" }
            ?? "write them in the lexicon's language (parley content lexicon prints the English ones to start from)"
        func missing(_ names: [String], _ field: String, _ what: String) {
            guard !names.isEmpty else { return }
            let shown = names.prefix(6).joined(separator: ", ") + (names.count > 6 ? ", … (\(names.count))" : "")
            warning(root.key(field), "no \(what) for \(shown): the English ones are used", hint: start)
        }
        missing(
            Lexicon.CommandTable.allCases.filter { !given.commands.contains($0) && !reference.commands($0).isEmpty }
                .map(\.rawValue), "commands", "command words")
        missing(
            reference.directions.keys.sorted().filter { !given.directions.contains($0) }, "directions",
            "direction words")
        missing(reference.lines.keys.sorted().filter { !given.lines.contains($0) }, "lines", "built-in lines")
        missing(
            Lexicon.Text.allCases.filter { !given.texts.contains($0) && reference.texts[$0] != nil }.map(\.rawValue),
            "texts", "texts")
    }

    /// One built-in rule's lines: `replies` and `outcomes` as a dialogue rule writes them.
    private mutating func lexiconLines(_ object: JSONObject, at path: JSONPath) -> Lexicon.Lines? {
        unknownFields(object, at: path, known: ["replies", "outcomes"])
        var valid = true
        let replies = replyList("replies", in: object, at: path)
        if replies == nil { valid = false }
        var outcomes: [DialogueOutcome: [String]] = [:]
        if let outcomeObject = self.object(
            "outcomes", in: object, at: path, required: false, what: "replies by outcome")
        {
            for (name, _) in outcomeObject {
                guard let outcome = DialogueOutcome(rawValue: name) else {
                    unknownName(
                        name, at: path.key("outcomes").key(name), kind: "outcome",
                        known: DialogueOutcome.allCases.map(\.rawValue))
                    valid = false
                    continue
                }
                if let list = replyList(name, in: outcomeObject, at: path.key("outcomes")) {
                    outcomes[outcome] = list
                } else {
                    valid = false
                }
            }
        } else if object["outcomes"] != nil {
            valid = false
        }
        if object["replies"] == nil, object["outcomes"] == nil {
            error(path, "a rule's lines need \"replies\" or \"outcomes\"", hint: "add at least one reply")
            valid = false
        }
        guard valid, let replies else { return nil }
        return Lexicon.Lines(replies: replies, outcomes: outcomes)
    }

    /// The names of the `{placeholders}` a text uses (`{{` and `}}` are literal braces).
    package static func textPlaceholders(_ text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text.replacingOccurrences(of: "{{", with: "").replacingOccurrences(of: "}}", with: ""))
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
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
                    Suggestions.didYouMean(name, in: known)
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
                if key == "words" {
                    numbers.words[word.lowercased()] = value
                } else {
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
            Suggestions.didYouMean(name, in: known)
            ?? "known: " + known.joined(separator: ", ")
        error(path, "unknown \(kind) \"\(name)\"", hint: hint)
    }

    /// The number of words in a text, as the scripted model splits them (letters and digits).
    package static func wordCount(_ text: String) -> Int {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).count
    }

    /// `first` and then what `second` adds, without repeats.
    package static func union(_ first: [String], _ second: [String]) -> [String] {
        var seen = Set(first)
        return first + second.filter { seen.insert($0).inserted }
    }

    /// Whether a text looks like a BCP 47 tag: subtags of 1 to 8 letters and digits joined by `-`, the first
    /// made of 2 to 3 letters.
    package static func isLanguageTag(_ text: String) -> Bool {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter),
            first.allSatisfy(\.isASCII)
        else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
