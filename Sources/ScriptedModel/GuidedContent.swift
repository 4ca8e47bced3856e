import LanguageModels
import ParleyJSON

/// Fills a guided-generation schema from the scripted model's reply: strings get the reply (or, for properties
/// named like `item`, `name` or `speaker`, the item or the NPC's name), numbers the price, quantity or number in
/// play, Booleans named like `accept` or `agree` whether the NPC agrees, enumerations a choice the reply mentions
/// (or the first), arrays their fewest elements. The result is checked against the schema.
enum GuidedContent {
    /// What the reply knows, to fill properties with.
    struct Hints: Sendable {
        /// The reply.
        var text: String
        /// The item in play, by id.
        var item: String?
        /// The price in play.
        var price: Int?
        /// The quantity in play.
        var quantity: Int?
        /// The number the player said.
        var number: Int?
        /// The NPC's name.
        var npc: String
        /// Whether the NPC agrees (an offer is pending or it said yes).
        var agrees: Bool
    }

    /// Content for a schema, or an error saying why the scripted model cannot follow it.
    ///
    /// - Parameters:
    ///   - schema: The requested schema.
    ///   - hints: What the reply knows.
    /// - Returns: Content that follows the schema.
    /// - Throws: `LanguageModelError.unsupportedCapability` when the filled content breaks the schema.
    static func make(for schema: GenerationSchema, hints: Hints) throws -> GeneratedContent {
        guard case .object(let root) = schema.jsonSchema else { return GeneratedContent(hints.text) }
        let value = fill(.object(root), name: nil, root: root, hints: hints, depth: 0)
        let content = GeneratedContent(jsonValue: value)
        let violations = schema.validate(content)
        guard violations.isEmpty else {
            throw LanguageModelError.unsupportedCapability(
                .init(
                    capability: .guidedGeneration,
                    debugDescription:
                        "ScriptedModel fills a schema from its scripted reply and could not follow \"\(schema.name)\": "
                        + violations.map(\.description).joined(separator: "; ")
                        + ". Use a schema of strings, numbers, Booleans, enumerations and arrays without "
                        + "patterns, or a model server (OpenAICompatible) for free guided generation."))
        }
        return content
    }

    private static func fill(
        _ schema: JSONValue, name: String?, root: JSONObject, hints: Hints, depth: Int
    ) -> JSONValue {
        guard depth < 32, case .object(let schema) = schema else { return .string(hints.text) }
        if let reference = schema["$ref"]?.stringValue {
            for prefix in ["#/$defs/", "#/definitions/"] where reference.hasPrefix(prefix) {
                let key = prefix == "#/$defs/" ? "$defs" : "definitions"
                if let target = root[key]?[String(reference.dropFirst(prefix.count))] {
                    return fill(target, name: name, root: root, hints: hints, depth: depth + 1)
                }
            }
            return .string(hints.text)
        }
        if let constant = schema["const"] { return constant }
        if let choices = schema["enum"]?.arrayValue, !choices.isEmpty {
            let text = hints.text.lowercased()
            return choices.first { $0.stringValue.map { text.contains($0.lowercased()) } ?? false } ?? choices[0]
        }
        if let choices = (schema["anyOf"] ?? schema["oneOf"])?.arrayValue, let first = choices.first {
            let nonNull = choices.first { $0["type"]?.stringValue != "null" } ?? first
            return fill(nonNull, name: name, root: root, hints: hints, depth: depth + 1)
        }
        let types: [String]
        switch schema["type"] {
        case .string(let type)?: types = [type]
        case .array(let names)?: types = names.compactMap(\.stringValue)
        default: types = schema["properties"] != nil ? ["object"] : ["string"]
        }
        let type = types.first { $0 != "null" } ?? "null"
        let key = (name ?? "").lowercased()
        switch type {
        case "object":
            var object = JSONObject()
            let properties = schema["properties"]?.objectValue ?? JSONObject()
            let order = schema["x-order"]?.arrayValue?.compactMap(\.stringValue) ?? properties.keys
            for property in order + properties.keys.filter({ !order.contains($0) }) {
                guard let propertySchema = properties[property], object[property] == nil else { continue }
                object[property] = fill(propertySchema, name: property, root: root, hints: hints, depth: depth + 1)
            }
            return .object(object)
        case "array":
            let count = schema["minItems"]?.intValue ?? 0
            let element = schema["items"] ?? .object(JSONObject())
            return .array(
                (0..<max(0, count)).map { _ in fill(element, name: name, root: root, hints: hints, depth: depth + 1) })
        case "integer", "number":
            var value: Int
            if ["price", "gold", "cost", "amount", "total"].contains(where: key.contains) {
                value = hints.price ?? hints.number ?? 0
            } else if ["quantity", "count", "number", "amount"].contains(where: key.contains) {
                value = hints.quantity ?? hints.number ?? 1
            } else {
                value = hints.number ?? hints.price ?? 0
            }
            // Bounds beyond ±1e15 (or not finite) are clamped there, so no schema can make the conversion trap.
            func whole(_ bound: Double) -> Int { bound.isNaN ? 0 : Int(min(max(bound, -1e15), 1e15)) }
            if let minimum = schema["minimum"]?.doubleValue { value = max(value, whole(minimum.rounded(.up))) }
            if let minimum = schema["exclusiveMinimum"]?.doubleValue {
                value = max(value, whole(minimum.rounded(.down)) + 1)
            }
            if let maximum = schema["maximum"]?.doubleValue { value = min(value, whole(maximum.rounded(.down))) }
            if let maximum = schema["exclusiveMaximum"]?.doubleValue {
                value = min(value, whole(maximum.rounded(.up)) - 1)
            }
            return .integer(value)
        case "boolean":
            return .bool(["accept", "agree", "deal", "yes", "willing"].contains(where: key.contains) && hints.agrees)
        case "null":
            return .null
        default:
            var text = hints.text
            if key.contains("item"), let item = hints.item {
                text = item
            } else if ["name", "speaker", "npc", "character"].contains(where: key.contains) {
                text = hints.npc
            }
            if let maximum = schema["maxLength"]?.intValue, text.count > maximum { text = String(text.prefix(maximum)) }
            if let minimum = schema["minLength"]?.intValue, text.count < minimum {
                text += String(repeating: ".", count: minimum - text.count)
            }
            return .string(text)
        }
    }
}
