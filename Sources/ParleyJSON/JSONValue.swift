/// A JSON document as an ordered tree.
///
/// `JSONValue` keeps what Foundation's JSON types lose: the order of object members (so a document can be
/// written back byte for byte) and the exact text of numbers (so 64-bit integers and seeds survive). It is the
/// common currency of Parley's formats: transcripts, content packs, server messages.
///
/// Objects compare and hash as JSON objects do: by their members, whatever their order. Numbers compare by
/// their value when both are finite doubles, otherwise by their text.
///
/// ```swift
/// let value = try JSONValue(parsing: #"{"name": "Mira", "gold": 12}"#)
/// value["gold"]?.intValue   // 12
/// value.jsonString()        // {"name":"Mira","gold":12}
/// ```
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its JSON text (for example `"42"`, `"-0.5"`, `"1e3"`).
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with its members in document order.
    case object(JSONObject)
}

// MARK: - Convenience initializers and accessors

extension JSONValue {
    /// A number from an integer.
    public static func integer(_ value: some BinaryInteger) -> JSONValue { .number(JSONNumber(value)) }

    /// A number from a double. Non-finite values become `null`, as JSON has no representation for them.
    public static func double(_ value: Double) -> JSONValue {
        guard let number = JSONNumber(value) else { return .null }
        return .number(number)
    }

    /// The member named `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array and the index is in range, otherwise `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string when this is a string, otherwise `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean when this is `true` or `false`, otherwise `nil`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as a `Double` when this is a number, otherwise `nil`.
    public var doubleValue: Double? {
        if case .number(let number) = self { return number.doubleValue }
        return nil
    }

    /// The number as an `Int` when this is a number with an exact integer value that fits, otherwise `nil`.
    ///
    /// `3` and `3.0` give 3; `3.5` and `1e30` give `nil`.
    public var intValue: Int? {
        if case .number(let number) = self { return number.intValue }
        return nil
    }

    /// The number as an `Int` when this is a number, its integer part clamped to `Int`'s range (`1e300` gives
    /// `Int.max`), otherwise `nil`: for counts from outside, which must saturate, not trap or vanish.
    public var saturatingIntValue: Int? {
        if case .number(let number) = self { return number.saturatingIntValue }
        return nil
    }

    /// The elements when this is an array, otherwise `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The object when this is an object, otherwise `nil`.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The JSON type's name, for error messages: `null`, `boolean`, `number`, `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

// MARK: - Equatable, Hashable

extension JSONValue: Hashable {
    /// Whether two values are the same JSON: objects regardless of member order, numbers by value.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    /// Hashes the value consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let number): hasher.combine(number)
        case .string(let value): hasher.combine(value)
        case .array(let elements): hasher.combine(elements)
        case .object(let object): hasher.combine(object)
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer number.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A floating-point number.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}
