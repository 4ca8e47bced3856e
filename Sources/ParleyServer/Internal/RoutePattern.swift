/// A parsed route pattern such as `/v1/games/{id}/transcript/{npc}`: literal segments and named parameters.
struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]
    let text: String

    /// Parses a pattern, or says what is wrong with it.
    init(_ text: String) throws(PatternError) {
        guard text.hasPrefix("/") else { throw PatternError(pattern: text, reason: "it must start with /") }
        self.text = text
        guard text != "/" else {
            segments = []
            return
        }
        var names: Set<String> = []
        var segments: [Segment] = []
        for piece in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if piece.isEmpty {
                throw PatternError(pattern: text, reason: "it has an empty segment (// or a trailing /)")
            }
            if piece.hasPrefix("{") && piece.hasSuffix("}") && piece.count > 2 {
                let name = String(piece.dropFirst().dropLast())
                guard name.utf8.allSatisfy({ ASCII.isTokenCharacter($0) && $0 != UInt8(ascii: "{") }) else {
                    throw PatternError(pattern: text, reason: "the parameter name \"\(name)\" is not a plain name")
                }
                guard names.insert(name).inserted else {
                    throw PatternError(pattern: text, reason: "the parameter {\(name)} appears twice")
                }
                segments.append(.parameter(name))
            } else if piece.contains("{") || piece.contains("}") {
                throw PatternError(
                    pattern: text,
                    reason: "the segment \"\(piece)\" mixes braces with text; a parameter is a whole segment")
            } else if piece == "." || piece == ".." {
                throw PatternError(pattern: text, reason: "it has a dot segment, which no request path can have")
            } else {
                segments.append(.literal(String(piece)))
            }
        }
        self.segments = segments
    }

    /// The parameters' values when `path` matches, otherwise `nil`.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, path) {
            switch segment {
            case .literal(let literal):
                guard literal == value else { return nil }
            case .parameter(let name):
                guard !value.isEmpty else { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }

    /// Whether this pattern is more specific than `other` for paths both match: at the first segment where they
    /// differ, a literal beats a parameter.
    func isMoreSpecific(than other: RoutePattern) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }

    /// The shape of the pattern with parameter names left out: two patterns with the same shape match the same
    /// paths.
    var shape: [String?] {
        segments.map { segment in
            if case .literal(let literal) = segment { return literal }
            return nil
        }
    }

    var description: String { text }

    /// A pattern that cannot be parsed.
    struct PatternError: Error, CustomStringConvertible {
        let pattern: String
        let reason: String

        var description: String {
            "The route pattern \"\(pattern)\" is invalid: \(reason). "
                + "Write patterns like /v1/games/{id}/transcript/{npc}."
        }
    }
}
