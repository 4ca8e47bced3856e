/// Turns the text of a Swift `Regex` into the ECMA-262 pattern a JSON Schema `pattern` holds, which servers' constrained
/// decoding reads (llama-server turns it into a grammar) and which Parley checks structured output against.
///
/// Swift's regex syntax is a superset of ECMAScript's. What has an equivalent is rewritten: `\A` and `\z` become `^`
/// and `$`, `\Q…\E` quoting becomes escaped characters, `\u{…}`, `\U…` and `\x{…}` become the character itself,
/// `(?P<name>…)` and `(?'name'…)` become `(?<name>…)`, `{,n}` becomes `{0,n}`, comments are dropped, and escapes of
/// punctuation that ECMAScript's unicode mode does not allow become the plain character. What has none is refused with
/// the reason: possessive quantifiers, atomic groups, inline options such as `(?i)`, `\Z`, `\G`, `\K`, `\R`, `\X`,
/// `\h`, `\v`, grapheme boundaries, nested character classes and class set operations (`&&`, `--`, `~~`).
///
/// Semantics that differ without any syntax showing it are kept as written: Swift matches by characters (grapheme
/// clusters) and with Unicode-aware `\w`, `\d` and `\s` by default, ECMAScript by code points and ASCII classes.
enum RegexPattern {
    /// The ECMA-262 form of a Swift regex's text.
    ///
    /// - Parameter swift: The regex's text, as `Regex._literalPattern` gives it.
    /// - Returns: The pattern, or why there is none.
    static func ecmaScript(from swift: String) -> Result<String, Refusal> {
        var translator = Translator(Array(swift))
        do {
            return .success(try translator.translate())
        } catch {
            return .failure(error)
        }
    }

    /// Why a regex has no ECMA-262 form.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        /// What ECMAScript lacks, for example `a possessive quantifier (a++)`.
        var description: String
    }

    private struct Translator {
        let characters: [Character]
        var position = 0
        var output = ""
        var inClass = false
        /// Whether the last thing written was a quantifier, so that a `+` after it makes it possessive and a `?`
        /// lazy.
        var afterQuantifier = false

        init(_ characters: [Character]) { self.characters = characters }

        func peek(_ offset: Int = 0) -> Character? {
            characters.indices.contains(position + offset) ? characters[position + offset] : nil
        }

        func refuse(_ what: String) -> Refusal { Refusal(description: "\(what) has no ECMAScript equivalent") }

        mutating func translate() throws(Refusal) -> String {
            while let character = peek() {
                let quantifierBefore = afterQuantifier
                afterQuantifier = false
                if character == "\\" {
                    try escape()
                } else if inClass {
                    try classCharacter(character)
                } else {
                    try outsideClass(character, quantifierBefore: quantifierBefore)
                }
            }
            return output
        }

        /// Writes a character as a literal: escaped if ECMAScript gives it a meaning where it stands.
        mutating func literal(_ character: Character) {
            let special: Set<Character> = inClass ? ["\\", "]", "[", "^", "-"] : Set("^$\\.*+?()[]{}|/")
            output += special.contains(character) ? "\\\(character)" : String(character)
        }

        /// Reads hex digits up to `terminator` (or `count` of them) after the current position.
        mutating func scalar(hexDigits count: Int?, terminator: Character?) throws(Refusal) -> Character {
            var digits = ""
            while let next = peek(), next != terminator, count.map({ digits.count < $0 }) ?? true, next.isHexDigit {
                digits.append(next)
                position += 1
            }
            if let terminator {
                guard peek() == terminator else { throw Refusal(description: "an unterminated \\u{…} escape") }
                position += 1
            }
            guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
                throw Refusal(description: "the escape of \(digits.isEmpty ? "nothing" : digits) is not a character")
            }
            return Character(scalar)
        }

        mutating func escape() throws(Refusal) {
            guard let escaped = peek(1) else { throw Refusal(description: "a pattern ending in a lone backslash") }
            position += 2
            switch escaped {
            case "Q":
                while let next = peek() {
                    if next == "\\" && peek(1) == "E" {
                        position += 2
                        return
                    }
                    literal(next)
                    position += 1
                }
            case "E":
                break  // a stray end of quoting
            case "A" where !inClass:
                output += "^"
            case "z" where !inClass:
                output += "$"
            case "d", "D", "w", "W", "s", "S", "n", "t", "r", "f", "0":
                output += "\\\(escaped)"
            case "b" where !inClass, "B" where !inClass:
                output += "\\\(escaped)"
            case "1"..."9" where !inClass:
                output += "\\\(escaped)"
                while let next = peek(), next.isASCII, next.isNumber {
                    output.append(next)
                    position += 1
                }
            case "k" where !inClass:
                guard let open = peek(), let close: Character = ["<": ">", "{": "}", "'": "'"][open] else {
                    throw refuse("\\k without a name")
                }
                position += 1
                var name = ""
                while let next = peek(), next != close {
                    name.append(next)
                    position += 1
                }
                position += 1
                output += "\\k<\(name)>"
            case "p", "P":
                var property = ""
                if peek() == "{" {
                    position += 1
                    while let next = peek(), next != "}" {
                        property.append(next)
                        position += 1
                    }
                    position += 1
                } else if let single = peek() {
                    property = String(single)
                    position += 1
                }
                output += "\\\(escaped){\(property)}"
            case "u":
                if peek() == "{" {
                    position += 1
                    literal(try scalar(hexDigits: nil, terminator: "}"))
                } else {
                    literal(try scalar(hexDigits: 4, terminator: nil))
                }
            case "U":
                literal(try scalar(hexDigits: 8, terminator: nil))
            case "x":
                if peek() == "{" {
                    position += 1
                    literal(try scalar(hexDigits: nil, terminator: "}"))
                } else {
                    literal(try scalar(hexDigits: 2, terminator: nil))
                }
            case "Z": throw refuse("\\Z (end of input before a final newline)")
            case "G": throw refuse("\\G (where the last match ended)")
            case "K": throw refuse("\\K (reset of the match's start)")
            case "R": throw refuse("\\R (any line break)")
            case "X": throw refuse("\\X (a whole character)")
            case "h", "H": throw refuse("\\\(escaped) (horizontal whitespace)")
            case "v", "V": throw refuse("\\\(escaped) (vertical whitespace)")
            case "y", "Y": throw refuse("\\\(escaped) (a grapheme boundary)")
            case "O": throw refuse("\\O (any code point)")
            case "N": throw refuse("\\N (a non-newline or a named character)")
            default:
                if escaped.isLetter || escaped.isNumber { throw refuse("the escape \\\(escaped)") }
                literal(escaped)
            }
        }

        mutating func classCharacter(_ character: Character) throws(Refusal) {
            let next = peek(1)
            switch character {
            case "[": throw refuse(next == ":" ? "a POSIX character class ([:name:])" : "a nested character class")
            case "&" where next == "&", "-" where next == "-", "~" where next == "~":
                throw refuse("a character class set operation (\(character)\(character))")
            case "]":
                inClass = false
                output += "]"
            default:
                output.append(character)
            }
            position += 1
        }

        mutating func outsideClass(_ character: Character, quantifierBefore: Bool) throws(Refusal) {
            position += 1
            switch character {
            case "[":
                inClass = true
                output += "["
                if peek() == "^" {
                    output += "^"
                    position += 1
                }
                // A `]` first in a class is a member in Swift, and closes an empty class in ECMAScript.
                if peek() == "]" {
                    output += "\\]"
                    position += 1
                }
            case "(":
                try group()
            case "+" where quantifierBefore:
                throw refuse("a possessive quantifier (…+)")
            case "?" where quantifierBefore:
                output += "?"  // lazy
            case "*", "+", "?":
                output.append(character)
                afterQuantifier = true
            case "{":
                if let bounds = quantifierBounds() {
                    output += "{\(bounds)}"
                    afterQuantifier = true
                } else {
                    output += "\\{"
                }
            case "}":
                output += "\\}"
            case "/":
                output += "\\/"
            default:
                output.append(character)
            }
        }

        /// Reads `n}`, `n,}`, `n,m}` or `,m}` after a `{`, returning ECMAScript's form, or `nil` when the brace is
        /// a literal.
        mutating func quantifierBounds() -> String? {
            var text = ""
            var offset = 0
            while let next = peek(offset), next != "}" {
                guard next.isASCII, next.isNumber || next == "," else { return nil }
                text.append(next)
                offset += 1
            }
            guard peek(offset) == "}", !text.isEmpty, text.filter({ $0 == "," }).count <= 1, text != "," else {
                return nil
            }
            position += offset + 1
            return text.hasPrefix(",") ? "0" + text : text
        }

        mutating func group() throws(Refusal) {
            guard peek() == "?" else {
                output += "("
                return
            }
            let kind = peek(1)
            switch kind {
            case ":", "=", "!":
                output += "(?\(kind!)"
                position += 2
            case "<" where peek(2) == "=" || peek(2) == "!":
                output += "(?<\(peek(2)!)"
                position += 3
            case "<", "'":
                try namedGroup(skipping: 2, closedBy: kind == "'" ? "'" : ">")
            case "P" where peek(2) == "<":
                try namedGroup(skipping: 3, closedBy: ">")
            case "#":
                while let next = peek(), next != ")" { position += 1 }
                position += 1
            case ">": throw refuse("an atomic group ((?>…))")
            case "|": throw refuse("a branch reset group ((?|…))")
            default: throw refuse("an inline option or special group ((?\(kind.map(String.init) ?? "")…)")
            }
        }

        /// Writes a named group as ECMAScript's `(?<name>`, its name read after `skipping` characters up to `close`.
        mutating func namedGroup(skipping: Int, closedBy close: Character) throws(Refusal) {
            position += skipping
            var name = ""
            while let next = peek(), next != close {
                name.append(next)
                position += 1
            }
            guard peek() == close else { throw Refusal(description: "an unterminated group name") }
            position += 1
            output += "(?<\(name)>"
        }
    }
}
