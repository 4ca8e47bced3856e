/// Encodes `Encodable` values straight to a `JSONValue`, without writing and re-parsing JSON text.
///
/// What it writes matches Foundation's `JSONEncoder` with its default strategies, so that a value encoded either
/// way is the same document:
/// - `encodeIfPresent` of `nil` (what synthesised `Codable` does for an optional property) writes no member; `nil`
///   in an array or a single-value container, and `encodeNil`, write `null`.
/// - Whole doubles within ±2^53 are written without a fraction (`3.0` is `3`), others in their shortest form; a
///   `Float` is written as its shortest decimal (`0.1`, not the `Double` it widens to). Infinity and NaN throw
///   `EncodingError.invalidValue`, as Foundation's default strategy does.
/// - Types such as `Date` and `Data` encode as their own `encode(to:)` does (a `Date` is its seconds since
///   2001-01-01, as Foundation's `.deferredToDate`; `Data` is an array of bytes, not Foundation's default Base64).
/// - A value whose `encode(to:)` writes nothing becomes `{}`.
///
/// Object members are in the order `keyOrder` says. With `.encodingOrder` (the default) they are in the order
/// `encode(to:)` first writes them (a key written twice keeps its first place and its last value): synthesised
/// `Codable` writes properties in declaration order. A `Dictionary` writes its keys in its own iteration order,
/// which differs between runs; use `.sorted` wherever the result must be the same on every run.
public struct JSONValueEncoder: Sendable {
    /// The order of object members in what the encoder returns.
    public enum KeyOrder: Sendable, Hashable {
        /// The order `encode(to:)` first writes each key in.
        case encodingOrder
        /// Sorted by key (`String`'s `<`, which orders by Unicode scalar), at every level: the order Foundation's
        /// `JSONEncoder` writes with `.sortedKeys`.
        case sorted
    }

    /// The order of object members; `.encodingOrder` unless set.
    public var keyOrder: KeyOrder

    /// Values made available to `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// An encoder.
    ///
    /// - Parameters:
    ///   - keyOrder: The order of object members.
    ///   - userInfo: Values made available to `encode(to:)`.
    public init(keyOrder: KeyOrder = .encodingOrder, userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.keyOrder = keyOrder
        self.userInfo = userInfo
    }

    /// Encodes a value.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The value as JSON.
    /// - Throws: `EncodingError.invalidValue` (with the coding path) for a non-finite number, or what the value's
    ///   `encode(to:)` throws.
    public func encode(_ value: some Encodable) throws -> JSONValue {
        let node = EncodingNode()
        try node.encode(value, encoder: ValueEncoder(node: node, codingPath: [], userInfo: userInfo))
        return node.value(sorted: keyOrder == .sorted)
    }
}

/// What has been encoded at one place in the document; a reference, so that containers can be written after they
/// are handed out.
final class EncodingNode {
    enum Kind { case unset, single, object, array }
    var kind = Kind.unset
    var single = JSONValue.null
    var keys: [String] = []
    var members: [String: EncodingNode] = [:]
    var elements: [EncodingNode] = []

    /// A leaf.
    static func leaf(_ value: JSONValue) -> EncodingNode {
        let node = EncodingNode()
        node.set(value)
        return node
    }

    func set(_ value: JSONValue) {
        kind = .single
        single = value
        keys = []
        members = [:]
        elements = []
    }

    func becomeObject() {
        switch kind {
        case .object: break
        case .unset, .single: kind = .object
        case .array: preconditionFailure("An unkeyed container was already requested here; a keyed one cannot be.")
        }
    }

    func becomeArray() {
        switch kind {
        case .array: break
        case .unset, .single: kind = .array
        case .object: preconditionFailure("A keyed container was already requested here; an unkeyed one cannot be.")
        }
    }

    /// Puts a member in place, keeping an existing key's first position.
    func setMember(_ key: String, _ node: EncodingNode) {
        if members.updateValue(node, forKey: key) == nil { keys.append(key) }
    }

    /// Encodes a value into this node, taking JSON values and numbers directly.
    func encode(_ value: some Encodable, encoder: ValueEncoder) throws {
        if let json = value as? JSONValue {
            set(json)
        } else {
            try value.encode(to: encoder)
        }
    }

    func value(sorted: Bool) -> JSONValue {
        switch kind {
        case .unset: .object(JSONObject())
        case .single: single
        case .array: .array(elements.map { $0.value(sorted: sorted) })
        case .object:
            .object(JSONObject((sorted ? keys.sorted() : keys).map { ($0, members[$0]!.value(sorted: sorted)) }))
        }
    }
}

/// The `Encoder` the value's `encode(to:)` sees.
struct ValueEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let userInfoValues: [CodingUserInfoKey: any Sendable]

    init(node: EncodingNode, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.node = node
        self.codingPath = codingPath
        userInfoValues = userInfo
    }

    var userInfo: [CodingUserInfoKey: Any] { userInfoValues }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedValueEncoder<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedValueEncoder(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueEncoder(encoder: self) }

    /// An encoder for a child node one key further down.
    func child(_ node: EncodingNode, _ key: any CodingKey) -> ValueEncoder {
        ValueEncoder(node: node, codingPath: codingPath + [key], userInfo: userInfoValues)
    }

    /// A leaf for a double, or an error when JSON cannot hold it.
    func number(_ value: Double, at path: [any CodingKey]) throws -> JSONValue {
        guard let number = JSONNumber(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        return .number(number)
    }

    /// A leaf for a float, written as its shortest decimal.
    func number(_ value: Float, at path: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        if value == value.rounded(), abs(value) < 16_777_216 { return .integer(Int64(value)) }
        if let number = JSONNumber(text: "\(value)") { return .number(number) }
        return try number(Double(value), at: path)
    }
}

/// An index's coding key in a coding path.
struct IndexCodingKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

struct KeyedValueEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func put(_ value: JSONValue, _ key: Key) { encoder.node.setMember(key.stringValue, .leaf(value)) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        put(try encoder.number(value, at: codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        put(try encoder.number(value, at: codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.integer(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let node = EncodingNode()
        try node.encode(value, encoder: encoder.child(node, key))
        encoder.node.setMember(key.stringValue, node)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let node = EncodingNode()
        encoder.node.setMember(key.stringValue, node)
        return encoder.child(node, key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let node = EncodingNode()
        encoder.node.setMember(key.stringValue, node)
        return encoder.child(node, key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { superEncoder(key: JSONCodingKey(stringValue: "super")) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(key: key) }

    private func superEncoder(key: any CodingKey) -> any Encoder {
        let node = EncodingNode()
        encoder.node.setMember(key.stringValue, node)
        return encoder.child(node, key)
    }
}

struct UnkeyedValueEncoder: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.elements.count }

    private func append(_ value: JSONValue) { encoder.node.elements.append(.leaf(value)) }
    private var nextPath: [any CodingKey] { codingPath + [IndexCodingKey(count)] }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try encoder.number(value, at: nextPath)) }
    mutating func encode(_ value: Float) throws { append(try encoder.number(value, at: nextPath)) }
    mutating func encode(_ value: Int) throws { append(.integer(value)) }
    mutating func encode(_ value: Int8) throws { append(.integer(value)) }
    mutating func encode(_ value: Int16) throws { append(.integer(value)) }
    mutating func encode(_ value: Int32) throws { append(.integer(value)) }
    mutating func encode(_ value: Int64) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt16) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt32) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt64) throws { append(.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let node = EncodingNode()
        try node.encode(value, encoder: encoder.child(node, IndexCodingKey(count)))
        encoder.node.elements.append(node)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        superEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { superEncoder().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder {
        let node = EncodingNode()
        let child = encoder.child(node, IndexCodingKey(count))
        encoder.node.elements.append(node)
        return child
    }
}

struct SingleValueEncoder: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func put(_ value: JSONValue) { encoder.node.set(value) }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try encoder.number(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { put(try encoder.number(value, at: codingPath)) }
    mutating func encode(_ value: Int) throws { put(.integer(value)) }
    mutating func encode(_ value: Int8) throws { put(.integer(value)) }
    mutating func encode(_ value: Int16) throws { put(.integer(value)) }
    mutating func encode(_ value: Int32) throws { put(.integer(value)) }
    mutating func encode(_ value: Int64) throws { put(.integer(value)) }
    mutating func encode(_ value: UInt) throws { put(.integer(value)) }
    mutating func encode(_ value: UInt8) throws { put(.integer(value)) }
    mutating func encode(_ value: UInt16) throws { put(.integer(value)) }
    mutating func encode(_ value: UInt32) throws { put(.integer(value)) }
    mutating func encode(_ value: UInt64) throws { put(.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.node.encode(value, encoder: encoder) }
}
