import Foundation
import GameWorld

/// Checks a line a language model voiced against the line the planner planned (grounded voicing): the voiced line
/// must keep every fact of the planned one and add none. The game's claim check (`ClaimChecker`) runs on it too;
/// this check catches what that one cannot, because it knows what the line was meant to say.
///
/// A voiced line is first cleaned (quotes around it, a `Name:` label before it and spaces removed) and cut to the
/// sentence budget. It is then refused when it
/// - says nothing, or writes a script label (`Player:`, `Line:`, `Reply:`), as a small model continuing the prompt does;
/// - drops a number of the planned line (a price, a quantity), writes one it wrote in digits in words, or drops the
///   name of an item or category it names, or a capitalised name it writes (the player's, an NPC's, a place's);
/// - adds a number, or names an item or category, that neither the planned line nor the player's line has;
/// - says no where the planned line says yes, or the other way round (`not`, `no`, `never`, `n't`, `nothing`, …),
///   in a sentence stating one of its facts (or anywhere, when the planned line states no fact but says no);
/// - writes a capitalised name that none of the given sources has (an invented place, person or thing);
/// - carries none of the planned line's words: not one of its content words (or, when it has none, of its words),
///   as "la" or "Hm." does for "Welcome, have a look around";
/// - is mostly words of its own: fewer than half of its content words, or of one sentence's, come from the sources
///   (the planned line, the player's line, the NPC's persona and the conversation), which is how a model that
///   answers something else, adds lore or makes a promise of its own reads.
///
/// Precision is not the aim here, safety is: a voiced line that is refused costs only its flourish (the planned line
/// is true), while one that passes wrongly would tell the player something false.
struct VoicedLineCheck {
    /// What a line names, and its numbers.
    struct Reading {
        var numbers: [Int] = []
        /// Numbers written as words that can be something else (`one`, as in "that one").
        var weakNumbers: Set<Int> = []
        var named: Set<ClaimVocabulary.Named> = []
        var negative = false
        var words: [String] = []
        /// Capitalised words not at the start of a sentence (lowercased).
        var capitalised: [String] = []
        /// The numbers written in digits.
        var digitNumbers: Set<Int> = []
        /// Each sentence's content words (see `contentWords`).
        var sentenceWords: [[String]] = []
        /// Each sentence's facts (its numbers and what it names) and whether it says no.
        var sentences: [(facts: Set<String>, negative: Bool)] = []
    }

    /// The words that never carry a fact: function words and the small talk any trader's line has.
    static let commonWords: Set<String> = [
        "a", "an", "the", "and", "or", "but", "so", "if", "then", "than", "that", "this", "these", "those", "there",
        "here", "it", "its", "it's", "is", "are", "was", "were", "be", "been", "being", "am", "i", "i'm", "i'll",
        "i've", "i'd", "me", "my", "mine", "you", "you're", "you'll", "your", "yours", "we", "our", "us", "they",
        "them", "their", "he", "she", "his", "her", "him", "of", "to", "in", "on", "at", "for", "with", "from", "by",
        "as", "about", "into", "up", "down", "out", "off", "over", "just", "only", "very", "really", "quite", "too",
        "also", "well", "oh", "ah", "eh", "yes", "yeah", "aye", "sure", "certainly", "indeed", "now", "today", "what",
        "which", "who", "how", "why", "when", "where", "do", "does", "did", "done", "have", "has", "had", "can",
        "could", "will", "would", "shall", "should", "may", "might", "must", "let", "let's", "get", "got", "go",
        "come", "see", "look", "take", "give", "say", "said", "tell", "know", "think", "like", "want", "need", "make",
        "good", "fine", "nice", "great", "lovely", "fair", "kind", "dear", "friend", "traveller", "traveler",
        "stranger", "sir", "madam", "friend's", "all", "any", "some", "much", "many", "more", "most", "one", "ones",
        "thing", "things", "something", "anything", "everything", "way", "day", "time", "please", "thank", "thanks",
        "welcome", "hello", "hi", "greetings", "bye", "farewell", "again", "still", "even", "ever", "each", "every",
        "own", "such", "same", "other", "another", "right", "back", "away", "afraid", "sorry", "glad", "happy",
        "course", "deal", "price", "gold", "coin", "coins", "buy", "sell", "trade", "offer", "worth", "cost", "costs",
        "pay", "yours", "mine", "ours", "hmm", "well", "alright", "okay", "ok", "certainly", "gladly", "happily",
        "wares", "goods", "stock", "shop", "stall",
    ]

    /// The words that make a sentence say no.
    static let negations: Set<String> = [
        "not", "no", "never", "nothing", "none", "nobody", "nowhere", "neither", "nor", "cannot", "without",
    ]

    /// A label a model writes when it continues the prompt instead of answering it, at the start of a line or a
    /// sentence (`Player:`, `Line:`, `Reply:`, `Planned reply:`), as a regular expression.
    static let scriptLabel = #"(^|[\n.!?]\s*)(player|user|line|reply|planned reply|planned line|assistant|you|npc)\s*:"#

    /// The world's words.
    let vocabulary: ClaimVocabulary
    /// The most sentences of a voiced line.
    let sentenceBudget: Int
    /// The number words of the NPC's lexicon (`World.lexicon(for:)`).
    var numbers = Lexicon.english.numbers

    /// The result: the line as it would be said, and what is wrong with it (nothing when it may be said).
    struct Result: Equatable {
        /// The voiced line, cleaned and cut to the budget.
        var line: String
        /// What is wrong with it; empty when it may be said.
        var problems: [String]
    }

    /// Checks a voiced line.
    ///
    /// - Parameters:
    ///   - voiced: What the model said.
    ///   - planned: What the planner planned.
    ///   - playerLine: What the player said this turn (it may name things the NPC then names too).
    ///   - speaker: The NPC's name, which the model may write as a label before the line.
    ///   - sources: More words the line may use: the NPC's persona, the recent conversation.
    ///   - complete: Whether the line is whole. A line said so far, sentence by sentence, is `false`: what it still
    ///     owes (a number, a name or the no of the planned line, one of its words) is not a problem yet, only what it
    ///     says wrongly or adds is.
    func check(
        _ voiced: String, planned: String, playerLine: String, speaker: String, sources: String, complete: Bool = true
    ) -> Result {
        let line = Self.cleaned(voiced, speaker: speaker, budget: sentenceBudget)
        guard !line.isEmpty else { return Result(line: line, problems: ["it says nothing"]) }
        var problems: [String] = []
        if let label = voiced.range(of: Self.scriptLabel, options: [.regularExpression, .caseInsensitive]) {
            let shown = voiced[label].trimmingCharacters(in: .whitespacesAndNewlines.union(.init(charactersIn: ".!?")))
            problems.append("it writes a script label (\"\(shown)\")")
        }
        let said = read(line)
        let plan = read(planned)
        let player = read(playerLine)
        let known = Set(plan.numbers + player.numbers)
        for number in Set(plan.numbers).sorted() where complete && !said.numbers.contains(number) {
            problems.append("it drops the number \(number)")
        }
        for number in Set(said.numbers).sorted() where !known.contains(number) && !said.weakNumbers.contains(number) {
            problems.append("it adds the number \(number)")
        }
        for thing in plan.named.sorted(by: { "\($0)" < "\($1)" }) where complete && !said.named.contains(thing) {
            problems.append("it drops \(Self.describe(thing))")
        }
        for thing in said.named.sorted(by: { "\($0)" < "\($1)" })
        where !plan.named.contains(thing) && !player.named.contains(thing) {
            problems.append("it names \(Self.describe(thing)), which the planned line does not")
        }
        problems += polarityProblems(said: said, plan: plan, complete: complete)
        var allowed = Set(plan.words + player.words)
        for word in read(sources + " " + speaker).words { allowed.insert(word) }
        let stems = Set(allowed.map(Self.stem))
        let invented = said.capitalised.filter { !allowed.contains($0) && !stems.contains(Self.stem($0)) }
        if let name = invented.first { problems.append("it invents the name \"\(name.capitalized)\"") }
        for number in plan.digitNumbers.sorted()
        where said.numbers.contains(number) && !said.digitNumbers.contains(number) {
            problems.append("it writes the number \(number) in words")
        }
        let names = Set(plan.capitalised.filter { !Self.commonWords.contains($0) })
        for name in names.sorted() where complete && !said.words.contains(name) && !said.words.contains(name + "'s") {
            problems.append("it drops the name \"\(name.capitalized)\"")
        }
        // A line with none of the planned line's words ("la", "Hm.") keeps its facts only when it has none to keep:
        // it must carry one of its content words, or of its words when it has no content words ("Hello there!").
        let plannedContent = Set(Self.contentWords(of: plan.words, numbers: numbers))
        let carried = plannedContent.isEmpty ? Set(plan.words.filter { !$0.isEmpty }) : plannedContent
        let saidStems = Set(said.words.map(Self.stem))
        if complete, !carried.isEmpty,
            !carried.contains(where: { said.words.contains($0) || saidStems.contains(Self.stem($0)) })
        {
            problems.append("it carries none of the planned line's words")
        }
        func isGrounded(_ word: String) -> Bool { allowed.contains(word) || stems.contains(Self.stem(word)) }
        let content = Self.contentWords(of: said.words, numbers: numbers)
        if !content.isEmpty {
            let grounded = content.filter(isGrounded).count
            if grounded * 2 < content.count {
                problems.append("most of its words are its own (\(grounded) of \(content.count) from the planned line)")
            } else if let sentence = said.sentenceWords.first(where: { words in
                !words.isEmpty && words.filter(isGrounded).count * 2 < words.count
            }) {
                problems.append("a sentence of it is mostly its own (\(sentence.joined(separator: " ")))")
            }
        }
        return Result(line: line, problems: problems)
    }

    /// The facts of a planned line as written, in order, for the voice's prompt: its numbers (with `gold` when it
    /// follows), the items and categories it names, and its capitalised names; `no` first when it says no and
    /// states no other fact.
    func facts(in planned: String) -> [String] {
        var facts: [String] = []
        func add(_ fact: String) { if !facts.contains(fact) { facts.append(fact) } }
        var negative = false
        for sentence in ClaimText(planned).sentences {
            let tokens = sentence.tokens
            let words = sentence.words
            var index = 0
            var first = true
            while index < tokens.count {
                let token = tokens[index]
                if let (_, end) = numbers.number(in: words, at: index),
                    !(end == index + 1 && ["one", "a"].contains(words[index]))
                {
                    var fact = tokens[index..<end].map(\.text).joined(separator: " ")
                    if end < tokens.count, words[end] == "gold" { fact += " gold" }
                    add(fact)
                    index = end
                    first = false
                    continue
                }
                if let (_, length) = name(in: words, at: index) {
                    add(tokens[index..<(index + length)].map(\.text).joined(separator: " "))
                    index += length
                    first = false
                    continue
                }
                if token.mark == nil {
                    if Self.negations.contains(token.word) || token.word.hasSuffix("n't") { negative = true }
                    if !first, token.text.first?.isUppercase == true, !Self.commonWords.contains(token.word),
                        token.word != "i", !token.word.hasPrefix("i'")
                    {
                        add(token.text)
                    }
                    first = false
                }
                index += 1
            }
        }
        if facts.isEmpty, negative { facts.append("no") }
        return facts
    }

    /// The item or category named from `index` on, and the length of its name; a single common word that also names
    /// an item ("worth every coin") is small talk, not a name.
    private func name(in words: [String], at index: Int) -> (named: ClaimVocabulary.Named, length: Int)? {
        guard let found = vocabulary.longestName(in: words, at: index),
            found.length > 1 || !Self.commonWords.contains(words[index])
        else { return nil }
        return found
    }

    /// Whether the voiced line says yes and no where the planned one does. When a sentence of the planned line that
    /// states a fact (a number, an item) says no, the voiced line must say no; when none does, no sentence of the
    /// voiced line that states a fact may say no (small talk may: "Asking's not getting"). A planned line that
    /// states no fact but says no ("I have never heard of it") is voiced with a no.
    /// The no still owed by a line said so far (`complete` false) is not a problem yet.
    private func polarityProblems(said: Reading, plan: Reading, complete: Bool) -> [String] {
        let factual = plan.sentences.filter { !$0.facts.isEmpty }
        if factual.contains(where: \.negative) || (factual.isEmpty && plan.negative) {
            return said.negative || !complete ? [] : ["it drops the planned line's no"]
        }
        if said.sentences.contains(where: { !$0.facts.isEmpty && $0.negative }) {
            return ["it says no where the planned line says yes"]
        }
        return []
    }

    /// Reads a line's numbers, names, negation and words.
    func read(_ line: String) -> Reading {
        var reading = Reading()
        for sentence in ClaimText(line).sentences {
            let tokens = sentence.tokens
            let words = sentence.words
            var facts: Set<String> = []
            // The tokens that are part of an item's or category's name.
            var inNames: Set<Int> = []
            var index = 0
            while index < tokens.count {
                if let (value, end) = numbers.number(in: words, at: index) {
                    reading.numbers.append(value)
                    if words[index].first?.isNumber == true { reading.digitNumbers.insert(value) }
                    if end == index + 1, ["one", "a"].contains(words[index]) {
                        reading.weakNumbers.insert(value)
                    } else {
                        facts.insert("\(value)")
                    }
                    index = end
                    continue
                }
                guard let (named, length) = name(in: words, at: index) else {
                    index += 1
                    continue
                }
                reading.named.insert(named)
                facts.insert("\(named)")
                inNames.formUnion(index..<(index + length))
                index += length
            }
            var first = true
            var negative = false
            for (position, token) in tokens.enumerated() where token.mark == nil {
                let word = token.word
                reading.words.append(word)
                if Self.negations.contains(word) || word.hasSuffix("n't") { negative = true }
                if !first, !inNames.contains(position), let initial = token.text.first, initial.isUppercase,
                    !word.hasPrefix("i'"), word != "i"
                {
                    reading.capitalised.append(word)
                }
                first = false
            }
            reading.negative = reading.negative || negative
            reading.sentences.append((facts, negative))
            reading.sentenceWords.append(Self.contentWords(of: words.filter { !$0.isEmpty }, numbers: numbers))
        }
        return reading
    }

    /// The words of a line that may carry meaning of their own: longer than two letters, not common, not a no (the
    /// polarity check reads those), not numbers.
    static func contentWords(of words: [String], numbers: Lexicon.Numbers) -> [String] {
        words.filter { word in
            word.count > 2 && !commonWords.contains(word) && !negations.contains(word) && !word.hasSuffix("n't")
                && !word.allSatisfy(\.isNumber) && numbers.number(in: [word], at: 0) == nil
        }
    }

    /// A word without a plural or possessive ending, to compare forms.
    static func stem(_ word: String) -> String {
        var word = word
        if word.hasSuffix("'s") { word.removeLast(2) }
        if word.hasSuffix("ies"), word.count > 4 { return String(word.dropLast(3)) + "y" }
        if word.hasSuffix("es"), word.count > 4 {
            word.removeLast(2)
        } else if word.hasSuffix("s"), word.count > 3 {
            word.removeLast()
        }
        return word
    }

    /// What a name names, for a problem's text.
    static func describe(_ named: ClaimVocabulary.Named) -> String {
        switch named {
        case .item(let item): "the item \(item.rawValue)"
        case .category(let category): "the category \(category)"
        }
    }

    /// A voiced line as it would be said: surrounding quotes and a `Name:` label removed, spaces collapsed, cut
    /// after `budget` sentences.
    static func cleaned(_ text: String, speaker: String, budget: Int) -> String {
        var line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // Only the first paragraph: a model that goes on after a blank line is writing something else.
        if let paragraph = line.range(of: "\n\n") { line = String(line[..<paragraph.lowerBound]) }
        for label in [speaker, speaker.split(separator: " ").first.map(String.init) ?? speaker] where !label.isEmpty {
            if line.lowercased().hasPrefix(label.lowercased() + ":") {
                line = String(line.dropFirst(label.count + 1)).trimmingCharacters(in: .whitespaces)
            }
        }
        let quotes: Set<Character> = ["\"", "\u{201C}", "\u{201D}"]
        while let first = line.first, let last = line.last, quotes.contains(first), quotes.contains(last),
            line.count > 1
        {
            line = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        line = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return firstSentences(of: line, budget)
    }

    /// The first `count` sentences of a line; a sentence ends at `.`, `!`, `?` or `…` followed by a space.
    static func firstSentences(of line: String, _ count: Int) -> String {
        var ends = 0
        var index = line.startIndex
        while index < line.endIndex {
            let next = line.index(after: index)
            if ".!?…".contains(line[index]), next == line.endIndex || line[next] == " " {
                ends += 1
                if ends == count { return String(line[..<next]) }
            }
            index = next
        }
        return line
    }
}
