import ParleyBasics

/// A reply with placeholders, parsed: literal text and `{placeholder}`s, in order.
///
/// `{{` and `}}` stand for literal braces. Parsing fails on an unknown placeholder, a `{` without its `}`, or a
/// lone `}`, with a message for the content checker. `{result.NAME}` is a member of the game's answer to an action
/// (`Member`); only `result` has members.
///
/// ```swift
/// let template = try DialogueTemplate(parsing: "The {item}? {price} gold.").get()
/// template.render { $0 == .item ? "Lantern" : "25" }   // "The Lantern? 25 gold."
/// ```
public struct DialogueTemplate: Hashable, Sendable {
    /// One piece of a template.
    public enum Piece: Hashable, Sendable {
        /// Text used as it is.
        case text(String)
        /// A value filled in when the reply is said.
        case placeholder(DialoguePlaceholder)
        /// A member of a placeholder's value, filled in when the reply is said: `{result.gate}`.
        case member(Member)
    }

    /// A member of a placeholder's value, by its path: `{result.gate.name}` is `result` and `["gate", "name"]`.
    public struct Member: Hashable, Sendable, CustomStringConvertible {
        /// The placeholder whose value holds the member (only `result` has members).
        public let placeholder: DialoguePlaceholder
        /// The member's path, outermost first; never empty.
        public let path: [String]

        /// The member as written in replies, `{result.gate}`.
        public var description: String { "{\(placeholder.rawValue).\(path.joined(separator: "."))}" }
    }

    /// The placeholders that have members.
    public static let placeholdersWithMembers: Set<DialoguePlaceholder> = [.result]

    /// Why a reply is not a valid template: a message and a hint, as the content checker prints them.
    public struct ParseError: Error, Hashable, Sendable {
        /// What is wrong, for example `unknown placeholder "{prise}"`.
        public let message: String
        /// How to fix it, for example `did you mean "{price}"?`.
        public let hint: String?
    }

    /// The pieces in order.
    public let pieces: [Piece]

    /// The placeholders the template uses, in order of first use.
    public var placeholders: [DialoguePlaceholder] {
        var seen: [DialoguePlaceholder] = []
        for case .placeholder(let name) in pieces where !seen.contains(name) { seen.append(name) }
        return seen
    }

    /// The members the template uses (`{result.gate}`), in order of first use.
    public var members: [Member] {
        var seen: [Member] = []
        for case .member(let member) in pieces where !seen.contains(member) { seen.append(member) }
        return seen
    }

    /// Parses a reply.
    ///
    /// - Parameter text: The reply as written in a content file.
    /// - Returns: The template, or why it is not one.
    public static func parse(_ text: String) -> Result<DialogueTemplate, ParseError> {
        var pieces: [Piece] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{" {
                if next < text.endIndex, text[next] == "{" {
                    literal.append("{")
                    index = text.index(after: next)
                    continue
                }
                guard let close = text[next...].firstIndex(of: "}") else {
                    return .failure(
                        ParseError(
                            message: "\"{\" has no closing \"}\"", hint: "write {{ for a literal brace"))
                }
                let name = String(text[next..<close])
                if let dot = name.firstIndex(of: ".") {
                    switch Self.member(name[..<dot], path: name[name.index(after: dot)...]) {
                    case .success(let member):
                        if !literal.isEmpty { pieces.append(.text(literal)) }
                        literal = ""
                        pieces.append(.member(member))
                        index = text.index(after: close)
                        continue
                    case .failure(let error): return .failure(error)
                    }
                }
                guard let placeholder = DialoguePlaceholder(rawValue: name) else {
                    let known = DialoguePlaceholder.allCases.map(\.rawValue)
                    let hint =
                        Suggestions.closest(to: name, in: known).map { Suggestions.didYouMean("{\($0)}") }
                        ?? "known placeholders: "
                        + DialoguePlaceholder.allCases.map(\.description).joined(separator: ", ")
                    return .failure(ParseError(message: "unknown placeholder \"{\(name)}\"", hint: hint))
                }
                if !literal.isEmpty { pieces.append(.text(literal)) }
                literal = ""
                pieces.append(.placeholder(placeholder))
                index = text.index(after: close)
            } else if character == "}" {
                guard next < text.endIndex, text[next] == "}" else {
                    return .failure(
                        ParseError(message: "\"}\" without an opening \"{\"", hint: "write }} for a literal brace"))
                }
                literal.append("}")
                index = text.index(after: next)
            } else {
                literal.append(character)
                index = next
            }
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        return .success(DialogueTemplate(pieces: pieces))
    }

    /// A member's placeholder and path, or why they are not one: `result` and `gate.name`.
    private static func member(_ name: Substring, path: Substring) -> Result<Member, ParseError> {
        let written = "{\(name).\(path)}"
        guard let placeholder = DialoguePlaceholder(rawValue: String(name)),
            placeholdersWithMembers.contains(placeholder)
        else {
            let with = placeholdersWithMembers.map { "{\($0.rawValue).NAME}" }.sorted().joined(separator: ", ")
            return .failure(
                ParseError(message: "unknown placeholder \"\(written)\"", hint: "only \(with) has members"))
        }
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } })
        else {
            return .failure(
                ParseError(
                    message: "\"\(written)\" is not a member placeholder",
                    hint: "write {\(name).NAME}, NAME a member of the game's answer (letters, digits, _ and -), "
                        + "and {\(name).NAME.INNER} for one inside it"))
        }
        return .success(Member(placeholder: placeholder, path: parts))
    }

    /// The template with its placeholders filled in; members (`{result.gate}`) are left empty.
    ///
    /// - Parameter value: The value of each placeholder.
    /// - Returns: The text.
    public func render(_ value: (DialoguePlaceholder) -> String) -> String {
        render(value, member: { _ in "" })
    }

    /// The template with its placeholders and members filled in.
    ///
    /// - Parameters:
    ///   - value: The value of each placeholder.
    ///   - member: The value of each member.
    /// - Returns: The text.
    public func render(_ value: (DialoguePlaceholder) -> String, member: (Member) -> String) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .placeholder(let name): value(name)
            case .member(let path): member(path)
            }
        }.joined()
    }
}
