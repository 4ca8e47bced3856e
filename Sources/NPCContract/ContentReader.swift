import LanguageModels

/// Reads one contract value out of generated content, member by member, and says exactly what is wrong when it
/// cannot: `Not a StockReport: $.items[0].price: expected Int`.
///
/// The messages follow the ones `CodableGenerable` gives for tool arguments (a model that sent a wrong argument
/// reads them in the tool's output and can correct itself).
struct ContentReader {
    /// The content at this point.
    let content: GeneratedContent
    /// The type being read, for messages.
    let type: String
    /// The content of the whole value, for messages.
    let root: GeneratedContent
    /// Where this point is in the whole value: `$.items[0]`, or empty at the top.
    let path: String

    /// A reader of a whole value.
    ///
    /// - Parameters:
    ///   - content: The value's content.
    ///   - type: The type being read.
    init(_ content: GeneratedContent, reading type: Any.Type) {
        self.content = content
        self.type = "\(type)"
        root = content
        path = ""
    }

    private init(content: GeneratedContent, type: String, root: GeneratedContent, path: String) {
        self.content = content
        self.type = type
        self.root = root
        self.path = path
    }

    /// The error for a problem at this point.
    func error(_ problem: String) -> GeneratedContent.ParsingError {
        GeneratedContent.ParsingError(
            rawContent: root.jsonString,
            debugDescription: "Not a \(type): \(path.isEmpty ? "the value" : "$" + path): \(problem)")
    }

    /// The members of the object at this point.
    ///
    /// - Throws: When the content is not an object.
    func properties() throws -> [String: GeneratedContent] {
        guard case .structure(let properties, _) = content.kind else { throw error("expected an object") }
        return properties
    }

    /// A reader for a member, or `nil` when it is missing or `null`.
    ///
    /// - Parameter name: The member's name.
    /// - Throws: When the content is not an object.
    func optional(_ name: String) throws -> ContentReader? {
        guard let member = try properties()[name] else { return nil }
        if case .null = member.kind { return nil }
        return ContentReader(content: member, type: type, root: root, path: path + "." + name)
    }

    /// A reader for a member that must be there.
    ///
    /// - Parameters:
    ///   - name: The member's name.
    ///   - expected: What it should be, for the message when it is `null`: `String`, `Int`...
    /// - Throws: When the content is not an object, or the member is missing or `null`.
    func required(_ name: String, _ expected: String) throws -> ContentReader {
        guard let member = try properties()[name] else { throw error("the property \"\(name)\" is missing") }
        let reader = ContentReader(content: member, type: type, root: root, path: path + "." + name)
        if case .null = member.kind { throw reader.error("expected \(expected), found null") }
        return reader
    }

    /// The string at this point.
    func string() throws -> String {
        guard case .string(let text) = content.kind else { throw error("expected String") }
        return text
    }

    /// The whole number at this point.
    func integer() throws -> Int {
        guard case .number(let number) = content.kind else { throw error("expected Int") }
        guard let integer = Int(exactly: number) else {
            throw error("Parsed JSON number <\(content.jsonString)> does not fit in Int.")
        }
        return integer
    }

    /// The elements of the array at this point, each with its reader.
    func elements() throws -> [ContentReader] {
        guard case .array(let elements) = content.kind else { throw error("expected Array") }
        return elements.enumerated().map { index, element in
            ContentReader(content: element, type: type, root: root, path: path + "[\(index)]")
        }
    }

    // MARK: - Members

    /// A string member that must be there.
    func string(_ name: String) throws -> String { try required(name, "String").string() }

    /// A string member, or `nil` when missing or `null`.
    func optionalString(_ name: String) throws -> String? { try optional(name)?.string() }

    /// A whole-number member that must be there.
    func integer(_ name: String) throws -> Int { try required(name, "Int").integer() }

    /// A whole-number member, or `nil` when missing or `null`.
    func optionalInteger(_ name: String) throws -> Int? { try optional(name)?.integer() }
}
