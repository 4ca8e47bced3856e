/// A fragment of HTML: text that is already markup.
///
/// Everything that comes from a save or a model reaches a page through ``HTML/escape(_:)``, the one escaping function
/// of the inspector: a string interpolated into an `HTML` literal is escaped, and only another `HTML` value is inserted
/// as markup. So a player's line `<script>alert(1)</script>` is shown as those characters, never run.
///
/// ```swift
/// let line = "<script>alert(1)</script>"
/// let fragment: HTML = "<p class=\"player\">\(line)</p>"
/// fragment.markup   // <p class="player">&lt;script&gt;alert(1)&lt;/script&gt;</p>
/// ```
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The markup.
    public private(set) var markup: String

    /// Markup written by the inspector itself, taken as it is.
    ///
    /// - Parameter markup: The markup.
    public init(markup: String) { self.markup = markup }

    /// A literal, taken as markup.
    ///
    /// - Parameter value: The literal.
    public init(stringLiteral value: String) { markup = value }

    /// A literal with interpolations: strings are escaped, ``HTML`` values inserted as markup.
    ///
    /// - Parameter interpolation: The interpolated literal.
    public init(stringInterpolation interpolation: Interpolation) { markup = interpolation.markup }

    /// The markup, as the page holds it.
    public var description: String { markup }

    /// Escapes text for HTML: `&`, `<`, `>`, `"` and `'` become character references, so that the text is safe
    /// between tags and inside an attribute's quotes. Nothing else changes.
    ///
    /// - Parameter text: Any text, from a save, a model or a request.
    /// - Returns: The escaped text.
    public static func escape(_ text: some StringProtocol) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\0": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Two fragments, one after the other.
    ///
    /// - Parameters:
    ///   - lhs: The first.
    ///   - rhs: The second.
    /// - Returns: Their markup, joined.
    public static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(markup: lhs.markup + rhs.markup) }

    /// Fragments one after another.
    ///
    /// - Parameter fragments: The fragments.
    /// - Returns: Their markup, joined.
    public static func joined(_ fragments: some Sequence<HTML>) -> HTML {
        HTML(markup: fragments.map(\.markup).joined())
    }

    /// Builds an ``HTML`` literal: literal parts are markup, interpolated strings are escaped.
    public struct Interpolation: StringInterpolationProtocol {
        var markup = ""

        /// Creates an empty interpolation.
        ///
        /// - Parameters:
        ///   - literalCapacity: The literal parts' length.
        ///   - interpolationCount: How many interpolations.
        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        /// Appends a literal part as markup.
        ///
        /// - Parameter literal: The literal.
        public mutating func appendLiteral(_ literal: String) { markup += literal }

        /// Appends text, escaped.
        ///
        /// - Parameter text: The text.
        public mutating func appendInterpolation(_ text: some StringProtocol) { markup += HTML.escape(text) }

        /// Appends a number.
        ///
        /// - Parameter number: The number.
        public mutating func appendInterpolation(_ number: Int) { markup += String(number) }

        /// Appends a fragment as markup.
        ///
        /// - Parameter fragment: The fragment.
        public mutating func appendInterpolation(_ fragment: HTML) { markup += fragment.markup }

        /// Appends fragments as markup, one after another.
        ///
        /// - Parameter fragments: The fragments.
        public mutating func appendInterpolation(_ fragments: [HTML]) { markup += fragments.map(\.markup).joined() }
    }
}
