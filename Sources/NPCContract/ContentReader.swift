import LanguageModels

/// Reads one contract value out of generated content, member by member, and says exactly what is wrong when it
/// cannot: `Not a StockReport: $.items[0].price: expected Int`.
///
/// The messages follow the ones `CodableGenerable` gives for tool arguments (a model that sent a wrong argument
/// reads them in the tool's output and can correct itself). The scripted model reads every output of a long
/// conversation at each request, so reading allocates nothing when it succeeds: the type's name and the path are
/// only written out for an error.
struct ContentReader {
    /// The content at this point.
    let content: GeneratedContent
    /// The type being read, for messages.
    private let type: Any.Type
    /// The content of the whole value, for messages.
    private let root: GeneratedContent
    /// The path to the container this point is in (empty at the top), for messages.
    private let parentPath: String
    /// The step from that container to this point.
    private let step: Step

    /// A step in a path: none (the top), a member, or an element.
    private enum Step {
        case top
        case member(String)
        case element(Int)
    }

    /// A reader of a whole value.
    ///
    /// - Parameters:
    ///   - content: The value's content.
    ///   - type: The type being read.
    init(_ content: GeneratedContent, reading type: Any.Type) {
        self.init(content: content, type: type, root: content, parentPath: "", step: .top)
    }

    private init(content: GeneratedContent, type: Any.Type, root: GeneratedContent, parentPath: String, step: Step) {
        self.content = content
        self.type = type
        self.root = root
        self.parentPath = parentPath
        self.step = step
    }

    /// Where this point is in the whole value: `.items[0]`, or empty at the top.
    private var path: String {
        switch step {
        case .top: parentPath
        case .member(let name): parentPath + "." + name
        case .element(let index): parentPath + "[\(index)]"
        }
    }

    /// The error for a problem at this point, or at a member of it.
    ///
    /// - Parameters:
    ///   - problem: What is wrong.
    ///   - member: The member the problem is at, if any.
    /// - Returns: The error.
    func error(_ problem: String, member: String? = nil) -> GeneratedContent.ParsingError {
        let path = member.map { self.path + "." + $0 } ?? self.path
        return GeneratedContent.ParsingError(
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

    /// A member's content, or `nil` when it is missing or `null`.
    private func member(_ name: String) throws -> GeneratedContent? {
        guard let member = try properties()[name] else { return nil }
        if case .null = member.kind { return nil }
        return member
    }

    /// A member's content that must be there.
    private func requiredMember(_ name: String, _ expected: String) throws -> GeneratedContent {
        guard let member = try properties()[name] else { throw error("the property \"\(name)\" is missing") }
        if case .null = member.kind { throw error("expected \(expected), found null", member: name) }
        return member
    }

    /// A reader for a member, or `nil` when it is missing or `null`.
    ///
    /// - Parameter name: The member's name.
    /// - Throws: When the content is not an object.
    func optional(_ name: String) throws -> ContentReader? {
        try member(name).map { child($0, .member(name)) }
    }

    /// A reader for a member that must be there.
    ///
    /// - Parameters:
    ///   - name: The member's name.
    ///   - expected: What it should be, for the message when it is `null`: `String`, `Int`...
    /// - Throws: When the content is not an object, or the member is missing or `null`.
    func required(_ name: String, _ expected: String) throws -> ContentReader {
        child(try requiredMember(name, expected), .member(name))
    }

    private func child(_ content: GeneratedContent, _ step: Step) -> ContentReader {
        ContentReader(content: content, type: type, root: root, parentPath: path, step: step)
    }

    /// The string at this point.
    func string() throws -> String {
        guard case .string(let text) = content.kind else { throw error("expected String") }
        return text
    }

    /// The whole number at this point.
    func integer() throws -> Int {
        try Self.integer(content) { error($0) }
    }

    /// The elements of the array at this point, each with its reader.
    func elements() throws -> [ContentReader] {
        guard case .array(let elements) = content.kind else { throw error("expected Array") }
        let path = self.path
        return elements.enumerated().map { index, element in
            ContentReader(content: element, type: type, root: root, parentPath: path, step: .element(index))
        }
    }

    // MARK: - Members

    /// A string member that must be there.
    func string(_ name: String) throws -> String {
        guard case .string(let text) = try requiredMember(name, "String").kind else {
            throw error("expected String", member: name)
        }
        return text
    }

    /// A string member, or `nil` when missing or `null`.
    func optionalString(_ name: String) throws -> String? {
        guard let member = try member(name) else { return nil }
        guard case .string(let text) = member.kind else { throw error("expected String", member: name) }
        return text
    }

    /// A whole-number member that must be there.
    func integer(_ name: String) throws -> Int {
        try Self.integer(requiredMember(name, "Int")) { error($0, member: name) }
    }

    /// A whole-number member, or `nil` when missing or `null`.
    func optionalInteger(_ name: String) throws -> Int? {
        guard let member = try member(name) else { return nil }
        return try Self.integer(member) { error($0, member: name) }
    }

    /// A whole number, or the error `fail` makes of the problem.
    private static func integer(
        _ content: GeneratedContent, _ fail: (String) -> GeneratedContent.ParsingError
    ) throws -> Int {
        guard case .number(let number) = content.kind else { throw fail("expected Int") }
        guard let integer = Int(exactly: number) else {
            throw fail("Parsed JSON number <\(content.jsonString)> does not fit in Int.")
        }
        return integer
    }
}
