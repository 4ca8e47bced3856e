import Foundation
import ParleyJSON

extension GenerationSchema {
    /// One way content breaks a schema.
    public struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// Where, as a JSON path such as `$.items[2].price`.
        public var path: String
        /// What is wrong, for example `is 0, below the minimum 1`.
        public var problem: String

        /// `$.price: is 0, below the minimum 1`.
        public var description: String { "\(path): \(problem)" }
    }

    /// Checks content against the schema.
    ///
    /// Supports the JSON Schema keywords schemas here use: `type`, `properties`, `required`,
    /// `additionalProperties`, `items`, `enum`, `const`, `anyOf`/`oneOf`, `not`, `minimum`/`maximum` (and exclusive),
    /// `minItems`/`maxItems`, `minLength`/`maxLength`, `pattern`, and `$ref` into `$defs` or `definitions`.
    /// Other keywords are ignored. An optional property (one not in `required`) may be `null`: it reads as absent.
    ///
    /// - Parameter content: The content, for example a model's structured answer.
    /// - Returns: Every violation found; empty when the content follows the schema.
    public func validate(_ content: GeneratedContent) -> [Violation] {
        var violations: [Violation] = []
        Validator(root: document).check(content.jsonValue, against: .object(document), path: "$", into: &violations)
        return violations
    }
}

/// Checks JSON values against a JSON Schema document.
private struct Validator {
    let root: JSONObject

    func check(
        _ value: JSONValue, against schema: JSONValue, path: String,
        into violations: inout [GenerationSchema.Violation], depth: Int = 0
    ) {
        func fail(_ problem: String) { violations.append(.init(path: path, problem: problem)) }
        guard case .object(let schema) = schema else { return }  // `true` or `{}`-like schemas accept anything
        guard depth < 64 else { return fail("the schema's references nest too deep to check") }

        if let reference = schema["$ref"]?.stringValue {
            guard let target = resolve(reference) else {
                return fail("the schema refers to \(reference), which is not defined")
            }
            check(value, against: target, path: path, into: &violations, depth: depth + 1)
        }
        if let choices = (schema["anyOf"] ?? schema["oneOf"])?.arrayValue {
            let matches = choices.contains { choice in
                var nested: [GenerationSchema.Violation] = []
                check(value, against: choice, path: path, into: &nested, depth: depth + 1)
                return nested.isEmpty
            }
            if !matches { fail("matches none of the \(choices.count) allowed shapes") }
        }
        if let excluded = schema["not"] {
            var nested: [GenerationSchema.Violation] = []
            check(value, against: excluded, path: path, into: &nested, depth: depth + 1)
            if nested.isEmpty { fail("matches a shape the schema excludes (`not`)") }
        }
        if let types = typeNames(schema["type"]), !types.contains(where: { matches(value, type: $0) }) {
            return fail("is \(describe(value)), expected \(types.joined(separator: " or "))")
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) {
            fail("is \(value.jsonString()), expected one of \(allowed.map { $0.jsonString() }.joined(separator: ", "))")
        }
        if let constant = schema["const"], constant != value {
            fail("is \(value.jsonString()), expected \(constant.jsonString())")
        }
        switch value {
        case .number(let number):
            checkNumber(number.doubleValue, schema, fail)
        case .string(let string):
            checkString(string, schema, fail)
        case .array(let elements):
            if let minimum = schema["minItems"]?.intValue, elements.count < minimum {
                fail("has \(elements.count) elements, fewer than \(minimum)")
            }
            if let maximum = schema["maxItems"]?.intValue, elements.count > maximum {
                fail("has \(elements.count) elements, more than \(maximum)")
            }
            if let items = schema["items"] {
                for (index, element) in elements.enumerated() {
                    check(element, against: items, path: "\(path)[\(index)]", into: &violations, depth: depth + 1)
                }
            }
        case .object(let object):
            let properties = schema["properties"]?.objectValue ?? JSONObject()
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            where !object.contains(key: name) {
                fail("lacks the required property \"\(name)\"")
            }
            for (key, member) in object {
                let memberPath = "\(path).\(key)"
                if member == .null, properties[key] != nil, !required.contains(key) {
                    // An optional property the model wrote as null: as good as leaving it out, as Apple's
                    // `GeneratedContent(json:)` and its `value(forProperty:)` of an optional read it.
                    continue
                }
                if let propertySchema = properties[key] {
                    check(member, against: propertySchema, path: memberPath, into: &violations, depth: depth + 1)
                } else if schema["additionalProperties"]?.boolValue == false {
                    violations.append(.init(path: memberPath, problem: "is not a property the schema allows"))
                } else if case .object? = schema["additionalProperties"], let extra = schema["additionalProperties"] {
                    check(member, against: extra, path: memberPath, into: &violations, depth: depth + 1)
                }
            }
        default:
            break
        }
    }

    private func checkNumber(_ number: Double, _ schema: JSONObject, _ fail: (String) -> Void) {
        if let minimum = schema["minimum"]?.doubleValue, number < minimum {
            fail("is \(format(number)), below the minimum \(format(minimum))")
        }
        if let maximum = schema["maximum"]?.doubleValue, number > maximum {
            fail("is \(format(number)), above the maximum \(format(maximum))")
        }
        if let minimum = schema["exclusiveMinimum"]?.doubleValue, number <= minimum {
            fail("is \(format(number)), not above \(format(minimum))")
        }
        if let maximum = schema["exclusiveMaximum"]?.doubleValue, number >= maximum {
            fail("is \(format(number)), not below \(format(maximum))")
        }
    }

    private func checkString(_ string: String, _ schema: JSONObject, _ fail: (String) -> Void) {
        if let minimum = schema["minLength"]?.intValue, string.count < minimum {
            fail("has \(string.count) characters, fewer than \(minimum)")
        }
        if let maximum = schema["maxLength"]?.intValue, string.count > maximum {
            fail("has \(string.count) characters, more than \(maximum)")
        }
        if let pattern = schema["pattern"]?.stringValue {
            if let expression = try? NSRegularExpression(pattern: pattern) {
                let range = NSRange(string.startIndex..., in: string)
                if expression.firstMatch(in: string, range: range) == nil {
                    fail("\"\(string)\" does not match the pattern \(pattern)")
                }
            } else {
                fail("the schema's pattern \(pattern) is not a valid regular expression")
            }
        }
    }

    private func resolve(_ reference: String) -> JSONValue? {
        for prefix in ["#/$defs/", "#/definitions/"] where reference.hasPrefix(prefix) {
            let name = String(reference.dropFirst(prefix.count))
            return root[prefix == "#/$defs/" ? "$defs" : "definitions"]?[name]
        }
        return reference == "#" ? .object(root) : nil
    }

    private func typeNames(_ type: JSONValue?) -> [String]? {
        switch type {
        case .string(let name)?: [name]
        case .array(let names)?: names.compactMap(\.stringValue)
        default: nil
        }
    }

    private func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            true
        case ("integer", .number(let number)): number.intValue != nil
        default: false
        }
    }

    private func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): "the string \"\(string.count > 40 ? String(string.prefix(40)) + "…" : string)\""
        case .number(let number): "the number \(number.text)"
        case .array: "an array"
        case .object: "an object"
        case .bool(let bool): "\(bool)"
        case .null: "null"
        }
    }

    private func format(_ number: Double) -> String { JSONValue.double(number).jsonString() }
}
