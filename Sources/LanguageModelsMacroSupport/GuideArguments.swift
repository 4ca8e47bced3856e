import SwiftSyntax

/// What a `@Guide` says about its property: a description, and guides as code the schema can use.
///
/// `@Guide(description: "Price", .range(1...500))` gives the description `"Price"` and the guide `.range(1...500)`;
/// a regex literal, `@Guide(description: "Code", /\A[A-Z]{3}\z/)`, becomes `.pattern(/\A[A-Z]{3}\z/)`, the guide that
/// takes a `Regex` and translates Swift's regex syntax into JSON Schema's (`^[A-Z]{3}$` here).
public struct GuideArguments: Equatable {
    /// The description, as the expression written.
    public let description: String?
    /// The guides, as expressions.
    public let guides: [String]
    /// Whether one of the guides was a regex literal, which only a `String` can follow.
    public let hasRegex: Bool

    /// Reads a `@Guide` attribute.
    ///
    /// - Parameter attribute: The attribute.
    public init(_ attribute: AttributeSyntax) {
        var description: String?
        var guides: [String] = []
        var hasRegex = false
        if case .argumentList(let arguments) = attribute.arguments {
            for argument in arguments {
                if argument.label?.text == "description" {
                    description = argument.expression.trimmedDescription
                } else if let regex = argument.expression.as(RegexLiteralExprSyntax.self) {
                    // The literal itself, as written (`/…/` or `#/…/#`): `pattern(_: Regex)` translates it into
                    // ECMAScript, or refuses it when it cannot be translated.
                    guides.append(".pattern(\(regex.trimmedDescription))")
                    hasRegex = true
                } else {
                    guides.append(argument.expression.trimmedDescription)
                }
            }
        }
        self.description = description
        self.guides = guides
        self.hasRegex = hasRegex
    }

    /// Text as a Swift string literal: quoted, with backslashes, quotes and control characters escaped.
    ///
    /// - Parameter text: Any text, such as a regex's pattern.
    /// - Returns: The literal, for example `"\\d+"` for `\d+`.
    public static func stringLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                literal += "\\u{\(String(scalar.value, radix: 16))}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }
}
