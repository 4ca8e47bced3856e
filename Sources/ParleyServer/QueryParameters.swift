/// The parameters of a request's query string, decoded, in order.
///
/// `?annotated=1&name=Mira%20Vale&tag=a&tag=b` gives `query["annotated"] == "1"`, `query["name"] == "Mira Vale"`
/// and `query.values(for: "tag") == ["a", "b"]`. A `+` is a space, as in HTML forms; a name without `=` has the
/// empty value. Names are case-sensitive. A query with a malformed escape (`%G1`) or one that is not UTF-8 once
/// decoded is refused with 400 before the handler runs.
public struct QueryParameters: Sendable, Hashable, Sequence {
    /// One parameter.
    public struct Item: Sendable, Hashable {
        /// The decoded name.
        public var name: String
        /// The decoded value; empty for a name without `=`.
        public var value: String

        /// Creates a parameter.
        ///
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The parameters in the order of the query.
    public let items: [Item]

    /// Creates parameters.
    ///
    /// - Parameter items: The parameters, in order.
    public init(_ items: [Item] = []) {
        self.items = items
    }

    /// The first value of a parameter, or `nil` when it is absent.
    ///
    /// - Parameter name: The parameter's name, case-sensitive.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// Every value of a parameter, in order.
    ///
    /// - Parameter name: The parameter's name.
    /// - Returns: The values; empty when it is absent.
    public func values(for name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    /// Whether the query has no parameters.
    public var isEmpty: Bool { items.isEmpty }

    /// Iterates over the parameters in order.
    ///
    /// - Returns: An iterator over the parameters.
    public func makeIterator() -> IndexingIterator<[Item]> {
        items.makeIterator()
    }
}
