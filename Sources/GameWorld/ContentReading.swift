import ParleyBasics
import ParleyJSON

/// What reads content documents and reports their problems as `ContentDiagnostic`s, with one way of reading each
/// kind of field: the content loader (in `ContentPacks`) and `LexiconDecoder` (the built-in lexicons and
/// `Lexicon(json:)`).
///
/// A reader supplies where its diagnostics go (`report`) and how many errors it has found; the readers of fields
/// (`string`, `integer`, `object`, `unknownFields`, ...), the parser and the lexicon's decoding
/// (`decodeLexicon(_:reference:)`) come with the protocol, so both say the same thing about the same mistake.
package protocol ContentReading {
    /// Reports one problem in the document being read.
    ///
    /// - Parameters:
    ///   - severity: An error or a warning.
    ///   - path: Where in the document.
    ///   - message: What is wrong.
    ///   - hint: How to fix it, or `nil`.
    ///   - line: The line, for a syntax error.
    ///   - column: The column, for a syntax error.
    mutating func report(
        _ severity: ContentDiagnostic.Severity, _ path: JSONPath, _ message: String, hint: String?, line: Int?,
        column: Int?)

    /// How many errors were reported so far.
    var errorCount: Int { get }
}

// MARK: - Reporting and parsing

extension ContentReading {
    /// Reports an error at `path`.
    package mutating func error(_ path: JSONPath, _ message: String, hint: String? = nil) {
        report(.error, path, message, hint: hint, line: nil, column: nil)
    }

    /// Reports a warning at `path`.
    package mutating func warning(_ path: JSONPath, _ message: String, hint: String? = nil) {
        report(.warning, path, message, hint: hint, line: nil, column: nil)
    }

    /// Parses one file. A duplicate key is reported and the file read again keeping the last value, so the
    /// rest of it is still checked; any other syntax error ends the file's checks.
    package mutating func parse(_ bytes: [UInt8]) -> JSONValue? {
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            let isDuplicateKey = error.message.hasPrefix("the object has the key")
            report(
                .error, .root, "invalid JSON at line \(error.line), column \(error.column): \(error.message)",
                hint: isDuplicateKey
                    ? "JSON objects must not repeat a key; remove one" : "the rest of this file was not checked",
                line: error.line, column: error.column)
            guard isDuplicateKey else { return nil }
            let lenient = JSONValue.ParsingOptions(rejectsDuplicateKeys: false)
            return try? JSONValue.parse(bytes, options: lenient).value
        }
    }
}

// MARK: - Reading fields

extension ContentReading {
    /// `string "abc"`, `number 12`, `an array`...: how a value is named in "expected X, found Y".
    package static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "boolean \(flag)"
        case .number(let number): return "number \(number.text)"
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
            return "string \(JSONValue.string(shown).jsonString())"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as an object, or an error saying what was expected.
    package mutating func object(_ value: JSONValue, at path: JSONPath, what: String) -> JSONObject? {
        guard case .object(let object) = value else {
            error(path, "expected \(what) (an object), found \(Self.describe(value))")
            return nil
        }
        return object
    }

    /// The member `key` as an object; missing is an error when `required`.
    package mutating func object(
        _ key: String, in object: JSONObject, at path: JSONPath, required: Bool, what: String
    )
        -> JSONObject?
    {
        guard let value = object[key] else {
            if required { missing(key, at: path) }
            return nil
        }
        return self.object(value, at: path.key(key), what: what)
    }

    /// Reports a required member that is missing.
    package mutating func missing(_ key: String, at path: JSONPath) {
        error(path, "missing required field \"\(key)\"")
    }

    /// The member `key` as a string; missing is an error when `required`, an empty string always.
    package mutating func string(_ key: String, in object: JSONObject, at path: JSONPath, required: Bool) -> String? {
        guard let value = object[key] else {
            if required { missing(key, at: path) }
            return nil
        }
        guard case .string(let text) = value else {
            error(path.key(key), "expected a string, found \(Self.describe(value))")
            return nil
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            error(path.key(key), "\"\(key)\" must not be empty")
            return nil
        }
        return text
    }

    /// The member `key` as a whole number within `range`.
    package mutating func integer(
        _ key: String, in object: JSONObject, at path: JSONPath, required: Bool, range: ClosedRange<Int>
    ) -> Int? {
        guard let value = object[key] else {
            if required { missing(key, at: path) }
            return nil
        }
        let fieldPath = path.key(key)
        guard case .number = value, let number = value.intValue else {
            if case .string(let text) = value, let number = Int(text) {
                error(
                    fieldPath, "expected a whole number, found \(Self.describe(value))",
                    hint: "write \(number) without quotes")
            } else if case .number(let number) = value {
                error(fieldPath, "expected a whole number, found \(number.text)")
            } else {
                error(fieldPath, "expected a whole number, found \(Self.describe(value))")
            }
            return nil
        }
        guard range.contains(number) else {
            outOfRange(
                key, at: fieldPath, value: "\(number)", lower: "\(range.lowerBound)", upper: "\(range.upperBound)")
            return nil
        }
        return number
    }

    /// Reports a number outside the range it must be in.
    package mutating func outOfRange(
        _ key: String, at path: JSONPath, value: String, lower: String, upper: String, hint: String? = nil
    ) {
        error(path, "\(key) must be from \(lower) to \(upper), found \(value)", hint: hint)
    }

    /// The member `key` as a Boolean.
    package mutating func bool(_ key: String, in object: JSONObject, at path: JSONPath) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else {
            var hint: String?
            if case .string(let text) = value, text == "true" || text == "false" {
                hint = "write \(text) without quotes"
            }
            error(path.key(key), "expected true or false, found \(Self.describe(value))", hint: hint)
            return nil
        }
        return flag
    }

    /// The member `key` as an array; missing is an error when `required`.
    package mutating func array(
        _ key: String, in object: JSONObject, at path: JSONPath, required: Bool
    ) -> [JSONValue]? {
        guard let value = object[key] else {
            if required { missing(key, at: path) }
            return nil
        }
        guard case .array(let elements) = value else {
            error(path.key(key), "expected an array, found \(Self.describe(value))")
            return nil
        }
        return elements
    }

    /// The member `key` as an array of non-empty strings, each with its path; bad elements are reported and
    /// left out.
    package mutating func strings(_ key: String, in object: JSONObject, at path: JSONPath) -> [(String, JSONPath)] {
        guard let elements = array(key, in: object, at: path, required: false) else { return [] }
        var result: [(String, JSONPath)] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.key(key).index(index)
            guard case .string(let text) = element else {
                error(elementPath, "expected a string, found \(Self.describe(element))")
                continue
            }
            guard !text.allSatisfy(\.isWhitespace) else {
                error(elementPath, "must not be empty")
                continue
            }
            result.append((text, elementPath))
        }
        return result
    }

    /// Warns about members not in `known` (except `$schema`), with a did-you-mean hint.
    package mutating func unknownFields(_ object: JSONObject, at path: JSONPath, known: [String]) {
        for key in object.keys where key != "$schema" && !known.contains(key) {
            let hint =
                Suggestions.didYouMean(key, in: known)
                ?? "known fields: " + known.joined(separator: ", ")
            warning(path.key(key), "unknown field \"\(key)\"", hint: hint)
        }
    }

    /// Text in double quotes, shortened when long, as diagnostics quote conditions.
    package static func quoted(_ text: String) -> String {
        let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
        return JSONValue.string(shown).jsonString()
    }

    /// The member `key` as a non-empty array of reply templates; `[]` when missing.
    package mutating func replyList(_ key: String, in object: JSONObject, at path: JSONPath) -> [String]? {
        guard object[key] != nil else { return [] }
        guard let elements = array(key, in: object, at: path, required: false) else { return nil }
        guard !elements.isEmpty else {
            error(path.key(key), "must not be empty", hint: "add a reply, or leave the field out")
            return nil
        }
        var replies: [String] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            let replyPath = path.key(key).index(index)
            guard case .string(let text) = element else {
                error(replyPath, "expected a string, found \(Self.describe(element))")
                valid = false
                continue
            }
            guard !text.allSatisfy(\.isWhitespace) else {
                error(replyPath, "must not be empty")
                valid = false
                continue
            }
            if case .failure(let problem) = DialogueTemplate.parse(text) {
                error(replyPath, problem.message, hint: problem.hint)
                valid = false
                continue
            }
            replies.append(text)
        }
        return valid ? replies : nil
    }
}
