/// An ordered list of HTTP header fields with case-insensitive lookup, for requests and responses.
///
/// Order and repeated names are kept as received or added. Names compare case-insensitively, as HTTP says.
/// ``description`` prints the values of credential fields (`Authorization`, `Cookie`, `Set-Cookie`,
/// `Proxy-Authorization`) as `<redacted>`, so fields can be logged safely.
///
/// ```swift
/// var headers: HTTPFields = ["Content-Type": "application/json"]
/// headers.add(name: "Cache-Control", value: "no-store")
/// request.headers["content-type"]   // "application/json"
/// ```
public struct HTTPFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name as given, for example `Content-Type`.
        public var name: String
        /// The field value, without surrounding whitespace.
        public var value: String

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The field name.
        ///   - value: The field value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates fields, keeping their order.
    ///
    /// - Parameter fields: The fields; repeated names are kept.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates fields from a literal, in the literal's order: `["Content-Type": "text/plain"]`.
    ///
    /// - Parameter elements: Names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The number of fields, counting repeated names.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value for a name, compared case-insensitively; `nil` when absent.
    ///
    /// Setting a value replaces every field with that name by one field at the position of the first; setting
    /// `nil` removes them all.
    ///
    /// - Parameter name: The field name, in any case.
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set {
            guard let newValue else {
                remove(name: name)
                return
            }
            if let index = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
                fields[index].value = newValue
                var seen = false
                fields.removeAll { field in
                    guard Self.namesMatch(field.name, name) else { return false }
                    defer { seen = true }
                    return seen
                }
            } else {
                fields.append(Field(name: name, value: newValue))
            }
        }
    }

    /// Every value for a name, in order.
    ///
    /// - Parameter name: The field name, in any case.
    /// - Returns: The values; empty when the name is absent.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Every comma-separated element of every field with a name, trimmed, empty elements left out: the list
    /// syntax of fields such as `Connection` and `Transfer-Encoding`.
    ///
    /// - Parameter name: The field name, in any case.
    /// - Returns: The elements in order.
    public func listElements(for name: String) -> [String] {
        values(for: name).flatMap { value in
            value.split(separator: ",").map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
        }
    }

    /// Whether a field with this name is present.
    ///
    /// - Parameter name: The field name, in any case.
    /// - Returns: `true` when at least one field has this name.
    public func contains(name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any existing fields with the same name.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field with a name.
    ///
    /// - Parameter name: The field name, in any case.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Iterates over the fields in order.
    ///
    /// - Returns: An iterator over the fields.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// One `Name: value` per line, credentials redacted.
    public var description: String {
        fields.map { field in
            "\(field.name): \(Self.isCredential(field.name) ? "<redacted>" : field.value)"
        }.joined(separator: "\n")
    }

    /// Whether two names are the same, ignoring ASCII case.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        ASCII.equalsIgnoringCase(lhs, rhs)
    }

    private static func isCredential(_ name: String) -> Bool {
        ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains { namesMatch($0, name) }
    }
}
