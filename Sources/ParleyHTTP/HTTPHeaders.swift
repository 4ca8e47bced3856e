/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Order and repeated names are kept as sent or received. Names compare case-insensitively, as HTTP says.
/// `description` and `dump(_:)` print the values of credential headers (`Authorization`, `Cookie`, API keys…)
/// as `<redacted>`, so headers can be logged safely.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "text/event-stream"]
/// headers.add(name: "Authorization", value: "Bearer \(apiKey)")
/// headers["accept"]  // "text/event-stream"
/// ```
public struct HTTPHeaders: Sendable, Hashable {
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

    /// Creates headers from fields, keeping their order.
    ///
    /// - Parameter fields: The fields; repeated names are kept.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// The number of fields, counting repeated names.
    public var count: Int { fields.count }

    /// The first value for a name, compared case-insensitively; `nil` when absent.
    ///
    /// Setting a value replaces every field with that name by one field at the position of the first;
    /// setting `nil` removes them all.
    ///
    /// - Parameter name: The field name, in any case.
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set {
            if let newValue {
                replaceOrAdd(name: name, value: newValue)
            } else {
                remove(name: name)
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

    /// Sets the only value of a name: replaces the first field with that name and removes the others,
    /// or appends the field when the name is absent.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public mutating func replaceOrAdd(name: String, value: String) {
        guard let first = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) else {
            add(name: name, value: value)
            return
        }
        fields[first] = Field(name: name, value: value)
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if Self.namesMatch(fields[index].name, name) {
                fields.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// Removes every field with this name.
    ///
    /// - Parameter name: The field name, in any case.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Whether the value of a header with this name is a credential that must never be printed or logged.
    ///
    /// Covers `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, and any name containing
    /// `api-key`, `token` or `secret`.
    ///
    /// - Parameter name: The field name, in any case.
    /// - Returns: `true` when the value must be redacted.
    public static func isSensitive(name: String) -> Bool {
        let lowered = name.lowercased()
        if ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(lowered) {
            return true
        }
        return ["api-key", "apikey", "token", "secret"].contains { lowered.contains($0) }
    }

    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.lowercased() == rhs.lowercased()
    }

    /// The fields with sensitive values replaced by `<redacted>`.
    var redactedFields: [Field] {
        fields.map { Self.isSensitive(name: $0.name) ? Field(name: $0.name, value: "<redacted>") : $0 }
    }
}

// MARK: - Literals and sequences

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    /// Creates headers from a literal, keeping the order written.
    ///
    /// - Parameter elements: Name and value pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements.map { Field(name: $0.0, value: $0.1) })
    }
}

extension HTTPHeaders: Sequence {
    /// Returns an iterator over the fields in order.
    ///
    /// - Returns: An iterator of ``Field`` values.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

// MARK: - Printing without secrets

extension HTTPHeaders: CustomStringConvertible, CustomReflectable {
    /// The fields as `Name: value` lines with credential values redacted.
    public var description: String {
        redactedFields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// A mirror with credential values redacted, so `dump(_:)` never prints them.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: redactedFields, displayStyle: .collection)
    }
}
