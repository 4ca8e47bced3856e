/// An ordered list of HTTP header fields with case-insensitive lookup, for requests and responses, on the client
/// (`ParleyHTTP`, where it is also called `HTTPHeaders`) and on the server (`ParleyServer`).
///
/// Order and repeated names are kept as sent, received or added. Names compare ignoring ASCII case, as HTTP says
/// (field names are ASCII tokens). ``description`` and the mirror `dump(_:)` prints show the values of credential
/// fields (see ``isSensitive(name:)``) as `<redacted>`, so fields can be logged safely on both sides.
///
/// ```swift
/// var headers: HTTPFields = ["Accept": "text/event-stream"]
/// headers.add(name: "Authorization", value: "Bearer \(apiKey)")
/// headers["accept"]   // "text/event-stream"
/// print(headers)      // Accept: text/event-stream / Authorization: <redacted>
/// ```
public struct HTTPFields: Sendable, Hashable {
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

    /// The number of fields, counting repeated names.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value for a name, compared ignoring case; `nil` when absent.
    ///
    /// Setting a value replaces every field with that name by one field at the position of the first (keeping the
    /// first's spelling of the name); setting `nil` removes them all.
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
                removeAll(named: name, after: index)
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

    /// Every comma-separated element of every field with a name, trimmed of spaces and tabs, empty elements left
    /// out: the list syntax of fields such as `Connection` and `Transfer-Encoding`.
    ///
    /// - Parameter name: The field name, in any case.
    /// - Returns: The elements in order.
    public func listElements(for name: String) -> [String] {
        values(for: name).flatMap { value in
            value.split(separator: ",").map { element in
                String(element.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            }.filter { !$0.isEmpty }
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

    /// Sets the only value of a name: replaces the first field with that name (spelt as given here) and removes the
    /// others, or appends the field when the name is absent.
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
        removeAll(named: name, after: first)
    }

    /// Removes every field with a name.
    ///
    /// - Parameter name: The field name, in any case.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    private mutating func removeAll(named name: String, after first: Int) {
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if Self.namesMatch(fields[index].name, name) {
                fields.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    // MARK: - Names

    /// Whether two field names are the same, ignoring ASCII case: HTTP's one case folding for field names.
    ///
    /// - Parameters:
    ///   - lhs: One name.
    ///   - rhs: The other.
    /// - Returns: `true` for `Content-Type` and `content-type`.
    public static func namesMatch(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        ASCIICase.equal(lhs, rhs)
    }

    /// The names whose values are credentials, compared ignoring case.
    public static let credentialNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// What a name containing any of these (ignoring case) carries a credential: `X-Api-Key`, `X-Auth-Token`,
    /// `X-Client-Secret`.
    public static let credentialNameParts = ["api-key", "apikey", "token", "secret"]

    /// Whether the value of a field with this name is a credential that must never be printed or logged.
    ///
    /// Covers `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` (``credentialNames``), and any name
    /// containing `api-key`, `apikey`, `token` or `secret` (``credentialNameParts``), in any case.
    ///
    /// - Parameter name: The field name, in any case.
    /// - Returns: `true` when the value must be redacted.
    public static func isSensitive(name: String) -> Bool {
        let lowered = ASCIICase.lowercased(name)
        return credentialNames.contains(lowered) || credentialNameParts.contains { lowered.contains($0) }
    }

    /// The fields with credential values replaced by `<redacted>`.
    public var redactedFields: [Field] {
        fields.map { Self.isSensitive(name: $0.name) ? Field(name: $0.name, value: "<redacted>") : $0 }
    }
}

// MARK: - Literals and sequences

extension HTTPFields: ExpressibleByDictionaryLiteral {
    /// Creates fields from a literal, in the literal's order: `["Content-Type": "text/plain"]`.
    ///
    /// - Parameter elements: Names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements.map { Field(name: $0.0, value: $0.1) })
    }
}

extension HTTPFields: Sequence {
    /// Iterates over the fields in order.
    ///
    /// - Returns: An iterator over the fields.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

// MARK: - Printing without secrets

extension HTTPFields: CustomStringConvertible, CustomReflectable {
    /// One `Name: value` per line, credential values redacted.
    public var description: String {
        redactedFields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// A mirror with credential values redacted, so `dump(_:)` and `Mirror` never show them.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: redactedFields, displayStyle: .collection)
    }
}
