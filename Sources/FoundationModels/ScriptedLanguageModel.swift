#if !canImport(Darwin)
import Foundation
import LanguageModels
import ParleyJSON

/// A model that needs nothing: offline, deterministic, and plainly scripted. `PARLEY_MODEL=scripted` (or
/// `SystemLanguageModel.configure("scripted")`) makes it what `SystemLanguageModel.default` answers with, so that an
/// app written for Apple's framework runs with no server: in CI, in a demo, in a test.
///
/// It understands nothing; it answers so that the app's code paths run:
///
/// - **Text:** `(scripted) ` and the prompt's text, the first 80 characters of it on one line, in quotes:
///   `(scripted) You said: "A day in Eastmarch?"`. The same prompt always gets the same answer.
/// - **Structured output** (a `@Generable` type or a `GenerationSchema`): the simplest content the schema allows,
///   which the session then reads as the type: every property present (optional ones too), the first of an enum's
///   choices or of `anyOf`'s shapes, numbers at their minimum (else 0, or the maximum when it is below 0), arrays
///   with their minimum count of elements (else none), `false`, and strings `(scripted)` cut or padded to their
///   length guides. A string with a `pattern` is the first of a few plain candidates the pattern accepts
///   (`(scripted)`, `scripted`, `a`, `A`, `0`, an empty string, or the pattern itself when it is a plain word);
///   for a pattern none of them fits, it throws `LanguageModelError.unsupportedGenerationGuide` saying so.
/// - **Tools:** it never calls them.
///
/// Not `ScriptedModel`, which plays a game's NPCs from a content pack's dialogue rules.
///
/// ```swift
/// let session = LanguageModelSession(model: ScriptedLanguageModel())
/// let itinerary = try await session.respond(to: "Plan a trip.", generating: Itinerary.self).content
/// ```
public struct ScriptedLanguageModel: LanguageModel {
    /// `scripted`.
    public var id: String { "scripted" }

    /// `1`: the rules above; a change to them gets a new version.
    public var version: String { "1" }

    /// 4096 tokens, as Apple's on-device model, counted as `TokenEstimate` counts them, so that a conversation too
    /// long for Apple's model is too long here as well.
    public let contextSize: Int

    /// A scripted model.
    ///
    /// - Parameter contextSize: Its context window in tokens; Apple's on-device model's, 4096, by default.
    public init(contextSize: Int = 4096) {
        self.contextSize = contextSize
    }

    /// The context window, known without waiting.
    public var knownContextSize: Int? { contextSize }

    /// Guided generation, within this process (it never calls tools, so it does not claim to).
    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.guidedGeneration, .inProcess])
    }

    /// Counts tokens as `TokenEstimate` does.
    public func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        TokenEstimate.tokens(in: entries)
    }

    /// Counts a schema's tokens as `TokenEstimate` does.
    public func tokenCount(for schema: GenerationSchema) async throws -> Int {
        TokenEstimate.tokens(in: schema)
    }

    /// The answer: text from the prompt, or the simplest content the request's schema allows.
    ///
    /// - Throws: `LanguageModelError.unsupportedGenerationGuide` for a schema it cannot answer (a string pattern
    ///   none of its candidates fits, or references that nest too deep), saying which.
    public func generate(_ request: GenerationRequest) async throws -> Generation {
        if let schema = request.schema {
            return Generation(output: .structure(try Self.content(for: schema)))
        }
        return Generation(output: .text(Self.reply(to: request)))
    }

    // MARK: - Text

    /// `(scripted) You said: "…"` with the last prompt's text, or `(scripted) Hello.` when there is none.
    static func reply(to request: GenerationRequest) -> String {
        let text =
            request.prompt?.segments.compactMap { segment -> String? in
                if case .text(let text) = segment { return text.content }
                return nil
            }.joined(separator: " ") ?? ""
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return "(scripted) Hello." }
        let shown = line.count > 80 ? String(line.prefix(80)) + "…" : line
        return "(scripted) You said: \"\(shown)\""
    }

    // MARK: - Structured output

    /// The simplest content `schema` allows (see the type's documentation).
    ///
    /// - Throws: `LanguageModelError.unsupportedGenerationGuide` when it has none to give.
    static func content(for schema: GenerationSchema) throws -> GeneratedContent {
        let root = schema.jsonSchema
        let value = try Builder(root: root, schemaName: schema.name).value(for: root, path: "$", depth: 0)
        return GeneratedContent(jsonValue: value)
    }

    /// Builds a value for a JSON Schema, resolving `$ref` into the root's `$defs`.
    private struct Builder {
        let root: JSONValue
        let schemaName: String

        /// How deep references may nest before optional properties are left out (a recursive type ends there)
        /// and, further, before the schema is refused.
        static let optionalDepth = 8
        static let maximumDepth = 32

        func refuse(_ path: String, _ problem: String) -> LanguageModelError {
            .unsupportedGenerationGuide(
                .init(
                    schemaName: schemaName,
                    debugDescription: "The scripted model cannot answer \(path) of \(schemaName): \(problem)."))
        }

        func value(for schema: JSONValue, path: String, depth: Int) throws -> JSONValue {
            guard depth < Self.maximumDepth else { throw refuse(path, "its references nest too deep") }
            guard case .object(let object) = schema else { return .null }  // `true` accepts anything
            if let reference = object["$ref"]?.stringValue {
                guard let target = resolve(reference) else { throw refuse(path, "\(reference) is not defined") }
                return try value(for: target, path: path, depth: depth + 1)
            }
            if let choices = (object["anyOf"] ?? object["oneOf"])?.arrayValue, let first = choices.first {
                return try value(for: first, path: path, depth: depth + 1)
            }
            if let constant = object["const"] { return constant }
            if let choices = object["enum"]?.arrayValue, let first = choices.first { return first }
            let types: [String] =
                switch object["type"] {
                case .string(let name)?: [name]
                case .array(let names)?: names.compactMap(\.stringValue)
                default: object["properties"] != nil ? ["object"] : object["items"] != nil ? ["array"] : ["null"]
                }
            let type = types.first { $0 != "null" } ?? "null"
            switch type {
            case "object": return try structure(object, path: path, depth: depth)
            case "array":
                let count = max(object["minItems"]?.intValue ?? 0, 0)
                let items = object["items"] ?? .object(JSONObject())
                return .array(
                    try (0..<count).map { try value(for: items, path: "\(path)[\($0)]", depth: depth + 1) })
            case "string": return .string(try string(object, path: path))
            case "integer": return .integer(Int(number(object, integer: true)))
            case "number": return .double(number(object, integer: false))
            case "boolean": return .bool(false)
            default: return .null
            }
        }

        /// Every property in the schema's order (`x-order`, else as listed); optional ones too, until references
        /// nest `optionalDepth` deep.
        private func structure(_ object: JSONObject, path: String, depth: Int) throws -> JSONValue {
            let properties = object["properties"]?.objectValue ?? JSONObject()
            let required = Set(object["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            let order = object["x-order"]?.arrayValue?.compactMap(\.stringValue) ?? properties.map(\.key)
            var result = JSONObject()
            for name in order {
                guard let property = properties[name] else { continue }
                if depth >= Self.optionalDepth && !required.contains(name) { continue }
                result[name] = try value(for: property, path: "\(path).\(name)", depth: depth + 1)
            }
            return .object(result)
        }

        /// The minimum (or just above an exclusive one), else 0 within the maximum.
        private func number(_ object: JSONObject, integer: Bool) -> Double {
            let step = integer ? 1.0 : 0.5
            var low = object["minimum"]?.doubleValue
            if let exclusive = object["exclusiveMinimum"]?.doubleValue {
                low = max(low ?? exclusive + step, exclusive + step)
            }
            var high = object["maximum"]?.doubleValue
            if let exclusive = object["exclusiveMaximum"]?.doubleValue {
                high = min(high ?? exclusive - step, exclusive - step)
            }
            var value = low ?? min(0, high ?? 0)
            if integer { value = value.rounded(.up) }
            return value
        }

        /// `(scripted)` within the length guides, or the first candidate a `pattern` accepts.
        private func string(_ object: JSONObject, path: String) throws -> String {
            let minimum = max(object["minLength"]?.intValue ?? 0, 0)
            let maximum = object["maxLength"]?.intValue ?? Int.max
            func fitted(_ text: String) -> String {
                var text = text.count > maximum ? String(text.prefix(max(maximum, 0))) : text
                while text.count < minimum { text += "." }
                return text
            }
            guard let pattern = object["pattern"]?.stringValue else { return fitted("(scripted)") }
            guard let expression = try? NSRegularExpression(pattern: pattern) else {
                throw refuse(path, "its pattern \(pattern) is not a regular expression")
            }
            let candidates =
                ["(scripted)", "scripted", "a", "A", "0", ""] + [Self.example(of: pattern)].compactMap { $0 }
            for candidate in candidates {
                let text = fitted(candidate)
                let range = NSRange(text.startIndex..., in: text)
                if text.count >= minimum, text.count <= maximum, expression.firstMatch(in: text, range: range) != nil {
                    return text
                }
            }
            throw refuse(
                path,
                "its pattern \(pattern) is not a simple sequence (no groups or alternatives) and accepts none of the "
                    + "plain strings it writes (\"(scripted)\", \"a\", \"0\", ...); use a server for such a schema")
        }

        /// The shortest string a simple pattern describes: a sequence of literal characters, escapes (`\d`, `\w`,
        /// `\s`, an escaped character), `.` and character classes (their first character), each with an optional
        /// quantifier (`?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`), between optional `^` and `$`. `[A-Z]{3}-\d{2}` gives
        /// `AAA-00`. `nil` for anything else (groups, alternatives, negated classes).
        static func example(of pattern: String) -> String? {
            var characters = Array(pattern)
            if characters.first == "^" { characters.removeFirst() }
            if characters.last == "$", characters.dropLast().last != "\\" { characters.removeLast() }
            var result = ""
            var index = 0
            while index < characters.count {
                // One atom: what it writes once.
                let atom: Character
                switch characters[index] {
                case "\\":
                    index += 1
                    guard index < characters.count else { return nil }
                    switch characters[index] {
                    case "d": atom = "0"
                    case "w": atom = "a"
                    case "s": atom = " "
                    case let escaped where !escaped.isLetter && !escaped.isNumber: atom = escaped
                    default: return nil
                    }
                    index += 1
                case "[":
                    index += 1
                    guard index < characters.count, characters[index] != "^" else { return nil }
                    if characters[index] == "\\" {
                        index += 1
                        guard index < characters.count else { return nil }
                        atom = characters[index] == "d" ? "0" : characters[index] == "w" ? "a" : characters[index]
                    } else {
                        atom = characters[index]
                    }
                    guard let close = characters[index...].firstIndex(of: "]") else { return nil }
                    index = close + 1
                case ".":
                    atom = "a"
                    index += 1
                case "(", ")", "|", "?", "*", "+", "{", "}", "]", "^", "$": return nil
                default:
                    atom = characters[index]
                    index += 1
                }
                // Its quantifier: how many times, at the least.
                var count = 1
                if index < characters.count {
                    switch characters[index] {
                    case "?", "*":
                        count = 0
                        index += 1
                    case "+": index += 1
                    case "{":
                        guard let close = characters[index...].firstIndex(of: "}") else { return nil }
                        let bounds = String(characters[(index + 1)..<close])
                            .split(separator: ",", omittingEmptySubsequences: false)
                        guard let first = bounds.first, let minimum = Int(first) else { return nil }
                        count = minimum
                        index = close + 1
                    default: break
                    }
                }
                if index < characters.count, characters[index] == "?" { index += 1 }  // lazy: the same here
                result += String(repeating: String(atom), count: count)
            }
            return result
        }

        private func resolve(_ reference: String) -> JSONValue? {
            for key in ["$defs", "definitions"] where reference.hasPrefix("#/\(key)/") {
                return root[key]?[String(reference.dropFirst(key.count + 3))]
            }
            return reference == "#" ? root : nil
        }
    }
}
#endif
