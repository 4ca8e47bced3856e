import Foundation

/// A model written as text, the way `parley --model` and `PARLEY_MODEL` take it: `scripted`, or a server's `/v1` URL
/// with an optional model name after `#`.
///
/// ```
/// scripted
/// http://127.0.0.1:8080/v1
/// http://127.0.0.1:11434/v1#llama3.2
/// ```
///
/// The one parser of such text in the package: `ModelChoice.parse` (ParleyModels) and `SystemLanguageModel`
/// (FoundationModels) both read specifications with it, so they accept and refuse the same text for the same reasons.
package enum ModelSpecification: Sendable, Equatable {
    /// The embedded scripted model.
    case scripted
    /// An OpenAI-compatible server, and the model to ask it for, if named.
    case server(baseURL: String, model: String?)

    /// Text that is not a model specification.
    package struct Invalid: Error, Sendable, Equatable {
        /// What is wrong with it when it looks like a URL; `nil` when it is not one at all.
        package let problem: String?
    }

    /// Parses a specification, checking a URL as far as can be without contacting it: an `http` or `https` scheme,
    /// a host, a port from 1 to 65535 if one is given, and no spaces or control characters. Empty text (after
    /// trimming spaces) is `scripted`.
    ///
    /// - Parameter specification: `scripted` or a URL, as above.
    /// - Returns: The specification.
    /// - Throws: `Invalid`, saying what is wrong when the text looks like a URL.
    package static func parse(_ specification: String) throws(Invalid) -> ModelSpecification {
        let trimmed = specification.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "scripted" || trimmed.isEmpty { return .scripted }
        let parts = trimmed.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let model = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
        let lowered = parts[0].lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            let looksLikeURL = lowered.contains(":/") || lowered.hasPrefix("http")
            throw Invalid(problem: looksLikeURL ? "a server's URL starts with http:// or https://" : nil)
        }
        if let problem = urlProblem(parts[0]) { throw Invalid(problem: problem) }
        return .server(baseURL: parts[0], model: model)
    }

    /// What is wrong with a URL that starts with `http://` or `https://`, or `nil` when it looks right.
    ///
    /// - Parameter url: The URL.
    /// - Returns: The problem, as a clause such as `its port is empty`.
    package static func urlProblem(_ url: String) -> String? {
        let scheme = url.lowercased().hasPrefix("https://") ? "https://" : "http://"
        if let bad = url.unicodeScalars.first(where: {
            $0.properties.isWhitespace || $0.properties.generalCategory == .control
        }) {
            return bad == " " ? "it contains a space" : "it contains a space or control character"
        }
        let rest = url.dropFirst(scheme.count)
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "its IPv6 address lacks the closing ]" }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "something follows its IPv6 address" }
                port = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { return "it has no host" }
        if !host.hasPrefix("["),
            let bad = host.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0))) })
        {
            return "its host contains \"\(bad)\""
        }
        if let port {
            guard let number = Int(port), port.allSatisfy(\.isASCII), (1...65535).contains(number) else {
                return port.isEmpty
                    ? "its port is empty" : "its port \(port) is not a number from 1 to 65535"
            }
        }
        return nil
    }
}
