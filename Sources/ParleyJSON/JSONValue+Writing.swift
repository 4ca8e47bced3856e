extension JSONValue {
    /// How `jsonString(_:)` lays a document out.
    public struct WritingOptions: OptionSet, Sendable {
        /// The option set's bits.
        public let rawValue: Int
        /// Creates options from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Indent nested values by two spaces, one member or element per line, `"key": value`.
        public static let prettyPrinted = WritingOptions(rawValue: 1 << 0)
        /// Write object members sorted by key instead of in their own order.
        public static let sortedKeys = WritingOptions(rawValue: 1 << 1)
        /// On one line, put a space after each `,` and `:` (`{"a": 1, "b": 2}`), as Apple's framework writes
        /// tool-call arguments.
        public static let spacedSeparators = WritingOptions(rawValue: 1 << 2)
    }

    /// The value as JSON text.
    ///
    /// Compact by default (`{"a":[1,2]}`), with members in their own order, non-ASCII characters as UTF-8, and
    /// only `"`, `\` and control characters escaped. The same value always gives the same text.
    ///
    /// - Parameter options: Pretty printing and key sorting.
    /// - Returns: The JSON text.
    public func jsonString(_ options: WritingOptions = []) -> String {
        var output = ""
        write(to: &output, options: options, indent: 0)
        return output
    }

    /// The value as UTF-8 encoded JSON text; see `jsonString(_:)`.
    public func jsonData(_ options: WritingOptions = []) -> [UInt8] {
        Array(jsonString(options).utf8)
    }

    private func write(to output: inout String, options: WritingOptions, indent: Int) {
        let pretty = options.contains(.prettyPrinted)
        let spaced = !pretty && options.contains(.spacedSeparators)
        func newline(_ level: Int) {
            guard pretty else { return }
            output.append("\n")
            output.append(String(repeating: "  ", count: level))
        }
        switch self {
        case .null: output.append("null")
        case .bool(let value): output.append(value ? "true" : "false")
        case .number(let number): output.append(number.text)
        case .string(let string): JSONValue.writeString(string, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { return output.append("[]") }
            output.append("[")
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(spaced ? ", " : ",") }
                newline(indent + 1)
                element.write(to: &output, options: options, indent: indent + 1)
            }
            newline(indent)
            output.append("]")
        case .object(let object):
            guard !object.isEmpty else { return output.append("{}") }
            output.append("{")
            let keys = options.contains(.sortedKeys) ? object.keys.sorted() : object.keys
            for (position, key) in keys.enumerated() {
                if position > 0 { output.append(spaced ? ", " : ",") }
                newline(indent + 1)
                JSONValue.writeString(key, to: &output)
                output.append(pretty || spaced ? ": " : ":")
                object[key]!.write(to: &output, options: options, indent: indent + 1)
            }
            newline(indent)
            output.append("}")
        }
    }

    /// Writes a JSON string literal, escaping only what JSON requires.
    static func writeString(_ string: String, to output: inout String) {
        output.append("\"")
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{08}": output.append("\\b")
            case "\u{0C}": output.append("\\f")
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output.append("\"")
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text.
    public var description: String { jsonString() }
}
