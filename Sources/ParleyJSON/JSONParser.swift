/// An error in a JSON document's syntax, with where it happened.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, for example `expected ',' or '}' after an object member`.
    public let message: String
    /// The byte offset of the problem in the document, from 0.
    public let offset: Int
    /// The line of the problem, from 1.
    public let line: Int
    /// The column of the problem in bytes, from 1.
    public let column: Int

    /// `line 3, column 7: expected ':' after an object key`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// How the parser treats a document.
    public struct ParsingOptions: Sendable {
        /// Accept a document that stops early, as a model's output does while it is streamed: open strings,
        /// arrays and objects are closed where the text ends, and a member or element that has not begun its
        /// value is left out. The result says whether the document was complete.
        public var allowsIncompleteDocument = false
        /// Reject an object that names the same key twice (the default), instead of keeping the last value.
        public var rejectsDuplicateKeys = true
        /// The deepest nesting of arrays and objects accepted; deeper documents are an error, not a crash.
        public var maximumDepth = 512

        /// Options for complete documents, rejecting duplicate keys, nesting at most 512 deep.
        public init(allowsIncompleteDocument: Bool = false, rejectsDuplicateKeys: Bool = true, maximumDepth: Int = 512)
        {
            self.allowsIncompleteDocument = allowsIncompleteDocument
            self.rejectsDuplicateKeys = rejectsDuplicateKeys
            self.maximumDepth = maximumDepth
        }
    }

    /// Parses a complete JSON document.
    ///
    /// - Parameter text: The document, for example `{"a": [1, 2]}`.
    /// - Throws: `JSONParseError` naming the line, column and problem.
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONValue.parse(Array(text.utf8), options: ParsingOptions()).value
    }

    /// Parses a complete JSON document from UTF-8 bytes.
    ///
    /// - Parameter bytes: The document's UTF-8 bytes.
    /// - Throws: `JSONParseError` naming the line, column and problem.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONValue.parse(Array(bytes), options: ParsingOptions()).value
    }

    /// Parses a JSON document with options, saying whether it was complete.
    ///
    /// - Parameters:
    ///   - bytes: The document's UTF-8 bytes.
    ///   - options: How to parse; see `ParsingOptions`.
    /// - Returns: The value, and `isComplete: false` when `allowsIncompleteDocument` let a document that stopped
    ///   early through.
    /// - Throws: `JSONParseError` naming the line, column and problem.
    public static func parse(
        _ bytes: some Collection<UInt8>, options: ParsingOptions
    ) throws(JSONParseError) -> (
        value: JSONValue, isComplete: Bool
    ) {
        var parser = Parser(bytes: Array(bytes), options: options)
        return try parser.parseDocument()
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes.
private struct Parser {
    let bytes: [UInt8]
    let options: JSONValue.ParsingOptions
    var index = 0
    var depth = 0
    /// Set when the input ended inside a value and the partial mode closed it.
    var reachedEnd = false

    init(bytes: [UInt8], options: JSONValue.ParsingOptions) {
        self.bytes = bytes
        self.options = options
    }

    /// The UTF-8 byte order mark some editors write at the start of a file.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether the document starts with a byte order mark, which is passed over (RFC 8259 lets parsers ignore it).
    var startsWithByteOrderMark: Bool { bytes.starts(with: Self.byteOrderMark) }

    mutating func parseDocument() throws(JSONParseError) -> (value: JSONValue, isComplete: Bool) {
        if startsWithByteOrderMark { index = Self.byteOrderMark.count }
        skipWhitespace()
        if index == bytes.count { throw error("the document is empty") }
        guard let value = try parseValue() else {
            throw error("the document ends before its first value is complete")
        }
        if reachedEnd { return (value, false) }
        skipWhitespace()
        if index != bytes.count { throw error("unexpected \(describe(bytes[index])) after the end of the document") }
        return (value, true)
    }

    // MARK: - Values

    /// Parses one value. Returns `nil` only in partial mode, when the input ends before the value has begun to
    /// mean something (for example `tr` or `-`).
    mutating func parseValue() throws(JSONParseError) -> JSONValue? {
        skipWhitespace()
        guard index < bytes.count else { return try endOfInput("a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            guard let string = try parseString() else { return nil }
            return .string(string)
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describe(bytes[index])) where a value should begin")
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue? {
        try enterContainer()
        defer { depth -= 1 }
        index += 1  // {
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { return try endOfContainer(.object(object), "an object key") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key in double quotes, found \(describe(bytes[index]))")
            }
            let keyStart = index
            guard let key = try parseString(), !reachedEnd else { return .object(object) }
            skipWhitespace()
            guard index < bytes.count else { return try endOfContainer(.object(object), "':'") }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the object key \"\(key)\", found \(describe(bytes[index]))")
            }
            index += 1
            guard let value = try parseValue() else { return .object(object) }
            if options.rejectsDuplicateKeys, object.contains(key: key) {
                throw error("the object has the key \"\(key)\" twice", at: keyStart)
            }
            object[key] = value
            if reachedEnd { return .object(object) }
            let valueEnd = index
            skipWhitespace()
            guard index < bytes.count else { return try endOfContainer(.object(object), "',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(object)
            default:
                throw missingSeparator(after: valueEnd, "',' or '}' after an object member", next: "member")
            }
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue? {
        try enterContainer()
        defer { depth -= 1 }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            guard let element = try parseValue() else { return .array(elements) }
            elements.append(element)
            if reachedEnd { return .array(elements) }
            let valueEnd = index
            skipWhitespace()
            guard index < bytes.count else { return try endOfContainer(.array(elements), "',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default:
                throw missingSeparator(after: valueEnd, "',' or ']' after an array element", next: "element")
            }
        }
    }

    /// Parses a string starting at its opening quote. In partial mode an unterminated string is returned as far
    /// as it goes (an escape cut in half is left out).
    mutating func parseString() throws(JSONParseError) -> String? {
        let start = index
        index += 1  // "
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ parser: Parser, upTo end: Int, into scalars: inout String.UnicodeScalarView) {
            if end > runStart {
                scalars.append(contentsOf: String(decoding: parser.bytes[runStart..<end], as: UTF8.self).unicodeScalars)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flushRun(self, upTo: index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 {
                throw error("a control character (\(describe(byte))) inside a string must be escaped")
            }
            if byte == UInt8(ascii: "\\") {
                flushRun(self, upTo: index, into: &scalars)
                guard let scalar = try parseEscape() else {
                    reachedEnd = true
                    return String(scalars)
                }
                scalars.append(scalar)
                runStart = index
                continue
            }
            index += 1
        }
        // The input ended inside the string.
        guard options.allowsIncompleteDocument else {
            throw error("the string that begins here is not closed", at: start)
        }
        // Drop a multi-byte character cut in half at the end.
        var end = index
        var back = end - 1
        while back >= runStart, bytes[back] & 0xC0 == 0x80 { back -= 1 }
        if back >= runStart, bytes[back] >= 0xC0 {
            let expected = bytes[back] >= 0xF0 ? 4 : bytes[back] >= 0xE0 ? 3 : 2
            if end - back < expected { end = back }
        }
        flushRun(self, upTo: end, into: &scalars)
        reachedEnd = true
        return String(scalars)
    }

    /// Parses an escape after its backslash; `nil` when the input ends inside it in partial mode.
    mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar? {
        let start = index
        index += 1  // backslash
        guard index < bytes.count else { return try endOfInput("an escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let high = try parseHex4() else { return nil }
            if (0xD800...0xDBFF).contains(high) {
                // A surrogate pair: \uD83D\uDE00.
                guard index + 1 < bytes.count || !options.allowsIncompleteDocument else { return try endOfInput("") }
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("a high surrogate \\u escape must be followed by a low surrogate", at: start) }
                index += 2
                guard let low = try parseHex4() else { return nil }
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("a high surrogate \\u escape must be followed by a low surrogate", at: start)
                }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw error("a lone low surrogate \\u escape is not a character", at: start)
            }
            return scalar
        default:
            throw error("\\\(Character(Unicode.Scalar(byte))) is not a JSON escape", at: start)
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { return try endOfInput("a \\u escape") }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("a \\u escape needs four hexadecimal digits, found \(describe(byte))")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue? {
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                index += 1
            default:
                let text = bytes[start..<index]
                guard JSONNumber.isValid(text) else {
                    throw error("\"\(String(decoding: text, as: UTF8.self))\" is not a JSON number", at: start)
                }
                return .number(JSONNumber(unchecked: String(decoding: text, as: UTF8.self)))
            }
        }
        // The input ended inside the number: it may have more digits to come.
        let text = bytes[start..<index]
        guard options.allowsIncompleteDocument else {
            guard JSONNumber.isValid(text) else {
                throw error("\"\(String(decoding: text, as: UTF8.self))\" is not a JSON number", at: start)
            }
            return .number(JSONNumber(unchecked: String(decoding: text, as: UTF8.self)))
        }
        reachedEnd = true
        // Keep the longest prefix that is a number: "12." and "1e" give their integer part.
        var end = text.endIndex
        while end > text.startIndex, !JSONNumber.isValid(text[text.startIndex..<end]) { end -= 1 }
        guard end > text.startIndex else { return nil }
        return .number(JSONNumber(unchecked: String(decoding: text[text.startIndex..<end], as: UTF8.self)))
    }

    mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue? {
        let expected = Array(word.utf8)
        let start = index
        for byte in expected {
            guard index < bytes.count else { return try endOfInput(word) }
            guard bytes[index] == byte else {
                let end = min(bytes.count, start + expected.count)
                throw error("\"\(String(decoding: bytes[start..<end], as: UTF8.self))\" is not a JSON value", at: start)
            }
            index += 1
        }
        return value
    }

    // MARK: - Helpers

    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > options.maximumDepth {
            throw error("arrays and objects are nested more than \(options.maximumDepth) deep")
        }
    }

    /// At the end of the input inside something: an error for complete documents, the end of parsing otherwise.
    mutating func endOfInput(_ expected: String) throws(JSONParseError) -> Unicode.Scalar? {
        guard options.allowsIncompleteDocument else {
            throw error("the document ends where \(expected.isEmpty ? "more" : expected) should follow")
        }
        reachedEnd = true
        return nil
    }

    mutating func endOfInput(_ expected: String) throws(JSONParseError) -> UInt32? {
        let _: Unicode.Scalar? = try endOfInput(expected)
        return nil
    }

    mutating func endOfInput(_ expected: String) throws(JSONParseError) -> JSONValue? {
        let _: Unicode.Scalar? = try endOfInput(expected)
        return nil
    }

    mutating func endOfContainer(_ container: JSONValue, _ expected: String) throws(JSONParseError) -> JSONValue? {
        let _: Unicode.Scalar? = try endOfInput(expected)
        return container
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x20..<0x7F: "'\(Character(Unicode.Scalar(byte)))'"
        default: "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    /// No separator after a value, where something else is (at `index`). When that is on a later line, the comma
    /// was most likely forgotten at the end of the value's line: the error is put there, saying where the next
    /// member begins, rather than at the next member, which is not where the fix goes.
    func missingSeparator(after valueEnd: Int, _ expected: String, next: String) -> JSONParseError {
        let found = describe(bytes[index])
        guard bytes[valueEnd..<index].contains(UInt8(ascii: "\n")) else {
            return error("expected \(expected), found \(found)")
        }
        let nextLine = error("", at: index).line
        return error(
            "expected \(expected): a comma is missing here, at the end of the line (the next \(next) begins on line "
                + "\(nextLine) with \(found))", at: valueEnd)
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? index, bytes.count)
        var line = 1
        // Columns on the first line count from after a byte order mark, which editors do not show.
        var lineStart = startsWithByteOrderMark ? Self.byteOrderMark.count : 0
        for position in 0..<offset where bytes[position] == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        return JSONParseError(message: message, offset: offset, line: line, column: offset - lineStart + 1)
    }
}
