/// A JSON object that keeps its members in order.
///
/// Lookup by key is a dictionary lookup; iteration follows document order. Setting an existing key replaces its
/// value in place; setting a new key appends it. Two objects are equal when they have the same members,
/// whatever their order, as JSON defines.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
    /// The member keys in order.
    public private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    /// An empty object.
    public init() {}

    /// An object with these members, in this order. A repeated key keeps its first position and its last value.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        for (key, value) in members { self[key] = value }
    }

    /// The value of the member named `key`; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// Whether the object has a member named `key`.
    public func contains(key: String) -> Bool { values[key] != nil }

    // MARK: RandomAccessCollection

    /// The position of the first member.
    public var startIndex: Int { keys.startIndex }
    /// The position after the last member.
    public var endIndex: Int { keys.endIndex }
    /// The member at `position`, as a key and its value.
    public subscript(position: Int) -> (key: String, value: JSONValue) {
        let key = keys[position]
        return (key, values[key]!)
    }

    // MARK: Equatable, Hashable

    /// Whether two objects have the same members, whatever their order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.values == rhs.values }

    /// Hashes the members consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}
