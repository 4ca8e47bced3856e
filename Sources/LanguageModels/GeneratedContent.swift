import ParleyJSON
import Synchronization

/// Content a model generated: a JSON-like tree whose object properties keep their order.
///
/// Structured responses, tool-call arguments and structured tool outputs are all `GeneratedContent`. It converts
/// to and from JSON text (`init(json:)`, `jsonString`) and to Swift values (`value(_:forProperty:)`).
///
/// ```swift
/// let content = try GeneratedContent(json: #"{"item": "lantern", "price": 12}"#)
/// let price = try content.value(Int.self, forProperty: "price")   // 12
/// ```
///
/// Two contents are equal when they have the same kind and value; the order of properties and the `id` are not
/// compared (JSON objects are unordered, and a decoded transcript has no generation ids).
public struct GeneratedContent: Sendable, Equatable, CustomDebugStringConvertible {
    /// The kinds of generated content.
    public enum Kind: Sendable, Equatable {
        /// `null`.
        case null
        /// A Boolean.
        case bool(Bool)
        /// A number.
        case number(Double)
        /// A string.
        case string(String)
        /// An array of contents.
        case array([GeneratedContent])
        /// An object: its properties and the order of their keys.
        case structure(properties: [String: GeneratedContent], orderedKeys: [String])

        /// Compares structures by their properties, ignoring key order.
        public static func == (lhs: Kind, rhs: Kind) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): true
            case (.bool(let a), .bool(let b)): a == b
            case (.number(let a), .number(let b)): a == b
            case (.string(let a), .string(let b)): a == b
            case (.array(let a), .array(let b)): a == b
            case (.structure(let a, _), .structure(let b, _)): a == b
            default: false
            }
        }
    }

    /// The content's kind and value.
    public var kind: Kind
    /// An identity the session gives a generation, stable across the snapshots of one streamed response.
    public var id: GenerationID?
    /// Whether the JSON this content was parsed from was complete (`false` for a snapshot of a streamed response).
    public private(set) var isComplete: Bool = true

    /// Creates content of a kind.
    ///
    /// - Parameters:
    ///   - kind: The kind and value.
    ///   - id: The generation it belongs to, if any.
    public init(kind: Kind, id: GenerationID? = nil) {
        self.kind = kind
        self.id = id
    }

    /// Creates a structure from ordered key-value pairs.
    ///
    /// ```swift
    /// GeneratedContent(properties: ["item": "lantern", "price": 12])
    /// ```
    /// - Parameters:
    ///   - properties: The properties in order.
    ///   - id: The generation it belongs to, if any.
    public init(properties: KeyValuePairs<String, any ConvertibleToGeneratedContent>, id: GenerationID? = nil) {
        var values: [String: GeneratedContent] = [:]
        var keys: [String] = []
        for (key, value) in properties {
            if values.updateValue(value.generatedContent, forKey: key) == nil { keys.append(key) }
        }
        self.init(kind: .structure(properties: values, orderedKeys: keys), id: id)
    }

    /// Creates a structure from a sequence of key-value pairs, combining values of repeated keys.
    ///
    /// - Parameters:
    ///   - properties: The properties in order.
    ///   - id: The generation it belongs to, if any.
    ///   - combine: Chooses the value of a key that appears twice.
    /// - Throws: What `combine` throws.
    public init<S: Sequence>(
        properties: S, id: GenerationID? = nil,
        uniquingKeysWith combine: (GeneratedContent, GeneratedContent) throws -> some ConvertibleToGeneratedContent
    ) rethrows where S.Element == (String, any ConvertibleToGeneratedContent) {
        var values: [String: GeneratedContent] = [:]
        var keys: [String] = []
        for (key, value) in properties {
            if let existing = values[key] {
                values[key] = try combine(existing, value.generatedContent).generatedContent
            } else {
                values[key] = value.generatedContent
                keys.append(key)
            }
        }
        self.init(kind: .structure(properties: values, orderedKeys: keys), id: id)
    }

    /// Creates an array.
    ///
    /// - Parameters:
    ///   - elements: The elements.
    ///   - id: The generation it belongs to, if any.
    public init<S: Sequence>(elements: S, id: GenerationID? = nil)
    where S.Element == any ConvertibleToGeneratedContent {
        self.init(kind: .array(elements.map(\.generatedContent)), id: id)
    }

    /// Creates content from a value that converts to it.
    ///
    /// - Parameter value: A string, number, Boolean, array or `Generable` value.
    public init(_ value: some ConvertibleToGeneratedContent) {
        self = value.generatedContent
    }

    /// Creates content from a value that converts to it, with a generation id.
    ///
    /// - Parameters:
    ///   - value: A string, number, Boolean, array or `Generable` value.
    ///   - id: The generation it belongs to.
    public init(_ value: some ConvertibleToGeneratedContent, id: GenerationID) {
        self = value.generatedContent
        self.id = id
    }

    /// Parses JSON text, which may be incomplete.
    ///
    /// A model streams its JSON a few characters at a time; each prefix parses to the content so far (open
    /// strings, arrays and objects are closed, a property whose value has not begun is left out) and
    /// `isComplete` says whether the text was whole.
    ///
    /// - Parameter json: JSON text, complete or cut short.
    /// - Throws: `GeneratedContent.ParsingError` when the text is not JSON, even allowing for its end.
    public init(json: String) throws {
        do {
            let (value, complete) = try JSONValue.parse(
                Array(json.utf8), options: .init(allowsIncompleteDocument: true, rejectsDuplicateKeys: false))
            self.init(jsonValue: value)
            isComplete = complete
        } catch {
            throw ParsingError(rawContent: json, debugDescription: "The text is not JSON: \(error).")
        }
    }

    /// The content as compact JSON text, properties in order.
    public var jsonString: String { jsonValue.jsonString() }

    /// The content as JSON text, pretty printed (for readable transcripts and prompts).
    public var debugDescription: String { jsonValue.jsonString(.prettyPrinted) }

    /// The property names of a structure in order, or an empty array for other kinds.
    public var orderedKeys: [String] {
        if case .structure(_, let keys) = kind { return keys }
        return []
    }

    /// The property named `name` of a structure, or `nil`.
    public subscript(property name: String) -> GeneratedContent? {
        if case .structure(let properties, _) = kind { return properties[name] }
        return nil
    }

    /// Whether two contents are the same value (ids and property order are not compared).
    public static func == (lhs: GeneratedContent, rhs: GeneratedContent) -> Bool { lhs.kind == rhs.kind }
}

// MARK: - Reading values

extension GeneratedContent {
    /// Converts the whole content to a Swift value.
    ///
    /// - Parameter type: The type to convert to, for example `String.self` or a `Generable` type.
    /// - Returns: The value.
    /// - Throws: The type's conversion error when the content does not fit it.
    public func value<Value: ConvertibleFromGeneratedContent>(_ type: Value.Type = Value.self) throws -> Value {
        try Value(self)
    }

    /// Reads a structure's property as a Swift value.
    ///
    /// - Parameters:
    ///   - type: The property's type.
    ///   - property: The property's name.
    /// - Returns: The property's value.
    /// - Throws: `GeneratedContent.ParsingError` when this is not a structure, the property is missing, or its
    ///   value does not fit the type.
    public func value<Value: ConvertibleFromGeneratedContent>(
        _ type: Value.Type = Value.self, forProperty property: String
    ) throws -> Value {
        guard case .structure(let properties, _) = kind else {
            throw ParsingError(
                rawContent: jsonString,
                debugDescription: "Expected an object with the property \"\(property)\", found \(kindName).")
        }
        guard let value = properties[property] else {
            throw ParsingError(
                rawContent: jsonString, debugDescription: "The object has no property \"\(property)\".")
        }
        do {
            return try Value(value)
        } catch let error as ParsingError {
            throw ParsingError(
                rawContent: jsonString,
                debugDescription: "The property \"\(property)\" is not a \(Value.self): \(error.debugDescription)")
        }
    }

    /// Reads an optional property: `nil` when it is missing or `null`.
    ///
    /// - Parameters:
    ///   - type: The property's type.
    ///   - property: The property's name.
    /// - Returns: The value, or `nil`.
    /// - Throws: `GeneratedContent.ParsingError` when this is not a structure or the value does not fit the type.
    public func value<Value: ConvertibleFromGeneratedContent>(
        _ type: Value?.Type = Value?.self, forProperty property: String
    ) throws -> Value? {
        guard case .structure(let properties, _) = kind else {
            throw ParsingError(
                rawContent: jsonString,
                debugDescription: "Expected an object with the property \"\(property)\", found \(kindName).")
        }
        guard let value = properties[property], value.kind != .null else { return nil }
        return try self.value(Value.self, forProperty: property)
    }

    /// `null`, `a Boolean`, `a number`, `a string`, `an array` or `an object`, for error messages.
    var kindName: String {
        switch kind {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .structure: "an object"
        }
    }
}

// MARK: - JSON bridge

extension GeneratedContent {
    /// Content from a JSON tree, keeping the order of object members.
    ///
    /// - Parameter value: The JSON; numbers become `Double`s.
    public init(jsonValue value: JSONValue) {
        switch value {
        case .null: self.init(kind: .null)
        case .bool(let bool): self.init(kind: .bool(bool))
        case .number(let number): self.init(kind: .number(number.doubleValue))
        case .string(let string): self.init(kind: .string(string))
        case .array(let elements): self.init(kind: .array(elements.map(GeneratedContent.init(jsonValue:))))
        case .object(let object):
            var properties: [String: GeneratedContent] = [:]
            for (key, member) in object { properties[key] = GeneratedContent(jsonValue: member) }
            self.init(kind: .structure(properties: properties, orderedKeys: object.keys))
        }
    }

    /// The content as a JSON tree, properties in order.
    public var jsonValue: JSONValue {
        switch kind {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .number(let number): .double(number)
        case .string(let string): .string(string)
        case .array(let elements): .array(elements.map(\.jsonValue))
        case .structure(let properties, let keys):
            .object(JSONObject(keys.compactMap { key in properties[key].map { (key, $0.jsonValue) } }))
        }
    }
}

// MARK: - Codable

extension GeneratedContent: Codable {
    /// Decodes content from plain JSON (as Apple's transcript format stores structured content).
    ///
    /// - Throws: `DecodingError` when the decoder holds something JSON cannot represent.
    public init(from decoder: any Decoder) throws {
        self.init(jsonValue: try JSONValue(from: decoder))
    }

    /// Encodes the content as plain JSON.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

/// Identifies one generation; snapshots of a streamed response share it.
public struct GenerationID: Sendable, Hashable {
    private let value: UInt64

    /// A new, unique generation id.
    public init() {
        value = GenerationID.counter.add(1, ordering: .relaxed).newValue
    }
}

extension GenerationID {
    fileprivate static let counter = Atomic<UInt64>(0)
}
