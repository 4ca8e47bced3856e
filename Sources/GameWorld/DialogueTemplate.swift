import ParleyBasics

/// A reply with placeholders, parsed: literal text and `{placeholder}`s, in order.
///
/// `{{` and `}}` stand for literal braces. Parsing fails on an unknown placeholder, a `{` without its `}`, or a
/// lone `}`, with a message for the content checker.
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
    }

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
                guard let placeholder = DialoguePlaceholder(rawValue: name) else {
                    let known = DialoguePlaceholder.allCases.map(\.rawValue)
                    let hint =
                        Suggestions.closest(to: name, in: known).map { "did you mean \"{\($0)}\"?" }
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

    /// The template with its placeholders filled in.
    ///
    /// - Parameter value: The value of each placeholder.
    /// - Returns: The text.
    public func render(_ value: (DialoguePlaceholder) -> String) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .placeholder(let name): value(name)
            }
        }.joined()
    }
}
