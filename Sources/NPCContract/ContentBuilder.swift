import LanguageModels

/// Builds one contract value's content, member by member and in order, leaving out members that have no value.
struct ContentBuilder {
    private var properties: [String: GeneratedContent] = [:]
    private var keys: [String] = []

    /// Adds a member; a later value for the same name replaces the earlier one in its place.
    ///
    /// - Parameters:
    ///   - name: The member's name.
    ///   - value: Its value; `nil` leaves the member out.
    mutating func add(_ name: String, _ value: (any ConvertibleToGeneratedContent)?) {
        guard let value else { return }
        if properties.updateValue(value.generatedContent, forKey: name) == nil { keys.append(name) }
    }

    /// Adds an array member.
    ///
    /// - Parameters:
    ///   - name: The member's name.
    ///   - elements: Its elements; `nil` leaves the member out.
    mutating func add(_ name: String, elements: [any ConvertibleToGeneratedContent]?) {
        guard let elements else { return }
        add(name, GeneratedContent(elements: elements))
    }

    /// The object built.
    var content: GeneratedContent { GeneratedContent(kind: .structure(properties: properties, orderedKeys: keys)) }
}
