import ParleyBasics

/// Parses condition expressions (see `Condition`) by recursive descent, keeping the text of each term so that the
/// content checker can quote it.
///
/// ```
/// expression := or
/// or         := and ("or" and)*
/// and        := unary ("and" unary)*
/// unary      := "not" unary | "(" expression ")" | term
/// term       := "has" [NUMBER] ID | "gold" OP NUMBER | "flag" ID | "counter" ID OP NUMBER
///             | "attitude" OP NUMBER | "quest" ID ("is" ID | OP ID) | "location" ID | "first" "meeting"
///             | "turns" OP NUMBER | "topic" ID
/// OP         := "<" | "<=" | "=" | "==" | "!=" | ">=" | ">"
/// ```
package struct ConditionParser {
    /// A parsed expression and each of its terms with the text it was written as.
    package struct Parsed: Sendable {
        /// The condition.
        package var condition: Condition
        /// Every term, in order, with its text as written (`has  lantern`).
        package var terms: [(condition: Condition, text: String)]
    }

    package typealias ParseError = Condition.ParseError

    /// The words that start a term, for "did you mean" hints.
    static let termWords = [
        "has", "gold", "flag", "counter", "attitude", "quest", "location", "first", "turns", "topic", "not",
    ]
    /// The most of an item `has` may ask for.
    static let maximumQuantity = 10_000

    // MARK: - Tokens

    private enum Kind: Equatable {
        case word(String)
        case number(Int)
        case comparison(Comparison)
        case open
        case close
    }

    private struct Token {
        var kind: Kind
        var range: Range<String.Index>
    }

    private let text: String
    private var tokens: [Token] = []
    private var position = 0
    private var terms: [(condition: Condition, text: String)] = []

    private init(text: String) {
        self.text = text
    }

    /// Parses an expression.
    ///
    /// - Parameter text: The expression.
    /// - Returns: The condition and its terms, or the first problem found.
    package static func parse(_ text: String) -> Result<Parsed, ParseError> {
        var parser = ConditionParser(text: text)
        do throws(ParseError) {
            try parser.tokenize()
            guard !parser.tokens.isEmpty else {
                throw ParseError(
                    "the condition is empty", hint: "write one, for example \"flag met_aurelio\" or \"gold >= 20\"")
            }
            let condition = try parser.parseOr()
            if let token = parser.peek {
                switch token.kind {
                case .close:
                    throw ParseError("unexpected \")\"", hint: "remove it, or add the \"(\" it closes")
                default:
                    throw ParseError(
                        "expected \"and\" or \"or\" before \"\(parser.source(of: token))\"",
                        hint: "join conditions with \"and\" or \"or\"")
                }
            }
            return .success(Parsed(condition: condition, terms: parser.terms))
        } catch {
            return .failure(error)
        }
    }

    private mutating func tokenize() throws(ParseError) {
        var index = text.startIndex
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_"
        }
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                index = text.index(after: index)
                continue
            }
            let start = index
            if character == "(" || character == ")" {
                index = text.index(after: index)
                tokens.append(Token(kind: character == "(" ? .open : .close, range: start..<index))
                continue
            }
            if "<>=!".contains(character) {
                index = text.index(after: index)
                if index < text.endIndex, text[index] == "=" { index = text.index(after: index) }
                let symbol = String(text[start..<index])
                let comparison: Comparison? = symbol == "==" ? .equal : Comparison(rawValue: symbol)
                guard let comparison else {
                    throw ParseError(
                        "unexpected \"\(symbol)\"", hint: "write \"!=\" for not equal, or \"not\" before a term")
                }
                tokens.append(Token(kind: .comparison(comparison), range: start..<index))
                continue
            }
            let negative = character == "-"
            if negative {
                let next = text.index(after: index)
                guard next < text.endIndex, text[next].isASCII, text[next].isNumber else {
                    throw ParseError(
                        "unexpected \"-\"", hint: "names use _ rather than -; a negative number is written -10")
                }
                index = next
            }
            guard isWordCharacter(text[index]) else {
                throw ParseError(
                    "unexpected \"\(character)\"",
                    hint: "conditions are words, numbers, comparisons (< <= = != >= >) and parentheses")
            }
            while index < text.endIndex, isWordCharacter(text[index]) { index = text.index(after: index) }
            let word = String(text[start..<index])
            if word.dropFirst(negative ? 1 : 0).allSatisfy({ $0.isASCII && $0.isNumber }) {
                guard let number = Int(word) else {
                    throw ParseError("the number \(word) is too large", hint: "write a smaller number")
                }
                tokens.append(Token(kind: .number(number), range: start..<index))
            } else if negative {
                throw ParseError("unexpected \"\(word)\"", hint: "write a negative number as -10")
            } else {
                tokens.append(Token(kind: .word(word), range: start..<index))
            }
        }
    }

    private var peek: Token? { position < tokens.count ? tokens[position] : nil }

    private func source(of token: Token) -> String { String(text[token.range]) }

    /// The text of the tokens from `start` up to the last one read.
    private func source(from start: Int) -> String {
        guard position > start else { return "" }
        return String(text[tokens[start].range.lowerBound..<tokens[position - 1].range.upperBound])
    }

    private func isWord(_ word: String) -> Bool {
        if case .word(let found)? = peek?.kind { return found.lowercased() == word }
        return false
    }

    // MARK: - Expressions

    private mutating func parseOr() throws(ParseError) -> Condition {
        var conditions = [try parseAnd()]
        while isWord("or") {
            position += 1
            conditions.append(try parseAnd(after: "or"))
        }
        return conditions.count == 1 ? conditions[0] : .any(conditions)
    }

    private mutating func parseAnd(after previous: String? = nil) throws(ParseError) -> Condition {
        var conditions = [try parseUnary(after: previous)]
        while isWord("and") {
            position += 1
            conditions.append(try parseUnary(after: "and"))
        }
        return conditions.count == 1 ? conditions[0] : .all(conditions)
    }

    private mutating func parseUnary(after previous: String?) throws(ParseError) -> Condition {
        guard let token = peek else {
            throw ParseError(
                previous.map { "expected a condition after \"\($0)\"" } ?? "expected a condition",
                hint: "for example \"flag met_aurelio\"")
        }
        switch token.kind {
        case .open:
            position += 1
            let inner = try parseOr()
            guard case .close? = peek?.kind else {
                throw ParseError("missing \")\"", hint: "every \"(\" needs a \")\" after its condition")
            }
            position += 1
            return inner
        case .close:
            throw ParseError(
                previous.map { "expected a condition after \"\($0)\", found \")\"" } ?? "unexpected \")\"",
                hint: "remove it, or put a condition before it")
        case .number, .comparison:
            throw ParseError(
                "expected a condition, found \"\(source(of: token))\"",
                hint: "a condition starts with a word: " + Self.termWords.joined(separator: ", "))
        case .word(let word):
            switch word.lowercased() {
            case "not":
                position += 1
                return .not(try parseUnary(after: "not"))
            case "and", "or":
                throw ParseError(
                    "\"\(word)\" needs a condition before it",
                    hint: "for example \"flag a \(word.lowercased()) flag b\"")
            default:
                return try parseTerm()
            }
        }
    }

    // MARK: - Terms

    private mutating func parseTerm() throws(ParseError) -> Condition {
        let start = position
        guard case .word(let word)? = peek?.kind else { preconditionFailure("parseTerm is called on a word") }
        position += 1
        let condition: Condition
        switch word.lowercased() {
        case "has":
            var quantity = 1
            if case .number(let number)? = peek?.kind {
                position += 1
                guard (1...Self.maximumQuantity).contains(number) else {
                    throw ParseError(
                        "the quantity after \"has\" must be from 1 to \(Self.maximumQuantity), found \(number)",
                        hint: "use \"not has ITEM\" for none")
                }
                quantity = number
            }
            let item = try identifier(kind: "item", after: source(from: start), example: "has lantern")
            condition = .has(item: ItemID(item), quantity: quantity)
        case "gold":
            let comparison = try self.comparison(after: "gold", example: "gold >= 20")
            condition = .gold(comparison, amount: try number(after: source(from: start), example: "gold >= 20"))
        case "flag":
            condition = .flag(try identifier(kind: "flag", after: "flag", example: "flag met_aurelio"))
        case "counter":
            let name = try identifier(kind: "counter", after: "counter", example: "counter visits >= 3")
            let comparison = try self.comparison(after: source(from: start), example: "counter \(name) >= 3")
            let value = try number(after: source(from: start), example: "counter \(name) >= 3")
            condition = .counter(name, comparison, value: value)
        case "attitude":
            let comparison = try self.comparison(after: "attitude", example: "attitude >= 10")
            condition = .attitude(comparison, value: try number(after: source(from: start), example: "attitude >= 10"))
        case "quest":
            let quest = try identifier(kind: "quest", after: "quest", example: "quest locket is found")
            let comparison: Comparison
            if isWord("is") {
                position += 1
                comparison = .equal
            } else if case .comparison(let found)? = peek?.kind {
                position += 1
                comparison = found
            } else {
                throw ParseError(
                    "expected \"is\" or a comparison after \"\(source(from: start))\""
                        + (peek.map { ", found \"\(source(of: $0))\"" } ?? ""),
                    hint: "for example \"quest \(quest) is found\" or \"quest \(quest) >= asked\"")
            }
            let stage = try identifier(
                kind: "stage", after: source(from: start), example: "quest \(quest) is found")
            condition = .quest(QuestID(quest), comparison, stage: stage)
        case "location":
            let location = try identifier(kind: "location", after: "location", example: "location mill_cellar")
            condition = .location(LocationID(location))
        case "first":
            guard isWord("meeting") else {
                throw ParseError(
                    "expected \"meeting\" after \"first\"" + (peek.map { ", found \"\(source(of: $0))\"" } ?? ""),
                    hint: "write \"first meeting\"")
            }
            position += 1
            condition = .firstMeeting
        case "turns":
            let comparison = try self.comparison(after: "turns", example: "turns >= 5")
            condition = .turns(comparison, count: try number(after: source(from: start), example: "turns >= 5"))
        case "topic":
            condition = .topic(try identifier(kind: "topic", after: "topic", example: "topic locket"))
        default:
            let hint =
                Suggestions.didYouMean(word.lowercased(), in: Self.termWords)
                ?? "a condition starts with one of: " + Self.termWords.joined(separator: ", ")
            throw ParseError("unknown condition \"\(word)\"", hint: hint)
        }
        terms.append((condition, source(from: start)))
        return condition
    }

    /// The next token as an id of `kind`.
    private mutating func identifier(
        kind: String, after previous: String, example: String
    ) throws(ParseError)
        -> String
    {
        guard let token = peek, case .word(let word) = token.kind else {
            throw ParseError(
                "expected \(Self.article(kind)) \(kind) after \"\(previous)\""
                    + (peek.map { ", found \"\(source(of: $0))\"" } ?? ""),
                hint: "for example \"\(example)\"")
        }
        guard ItemID.isWellFormed(word) else {
            throw ParseError(
                "\"\(word)\" is not a valid \(kind) id",
                hint: "use lowercase letters, digits and _, starting with a letter, like "
                    + "\"\(ItemID.suggestion(for: word))\"")
        }
        if ["and", "or", "not", "is"].contains(word) {
            throw ParseError(
                "expected \(Self.article(kind)) \(kind) after \"\(previous)\", found \"\(word)\"",
                hint: "for example \"\(example)\"")
        }
        position += 1
        return word
    }

    /// The next token as a comparison.
    private mutating func comparison(after previous: String, example: String) throws(ParseError) -> Comparison {
        guard case .comparison(let comparison)? = peek?.kind else {
            throw ParseError(
                "expected a comparison (<, <=, =, !=, >=, >) after \"\(previous)\""
                    + (peek.map { ", found \"\(source(of: $0))\"" } ?? ""),
                hint: "for example \"\(example)\"")
        }
        position += 1
        return comparison
    }

    /// The next token as a whole number.
    private mutating func number(after previous: String, example: String) throws(ParseError) -> Int {
        guard case .number(let number)? = peek?.kind else {
            throw ParseError(
                "expected a whole number after \"\(previous)\"" + (peek.map { ", found \"\(source(of: $0))\"" } ?? ""),
                hint: "for example \"\(example)\"")
        }
        position += 1
        return number
    }

    private static func article(_ word: String) -> String {
        ["a", "e", "i", "o", "u"].contains(word.first.map(String.init) ?? "") ? "an" : "a"
    }
}
