// Removing bearer tokens from text that may quote an HTTP `Authorization` header: a backend's error, a proxy's error
// page. `package`: for Parley's modules (ParleyHTTP's `SecretRedactor` applies it to every server text; the engine
// cleans every failure it records or shows with it, whatever the backend), not for apps.

import Foundation

extension String {
    /// The text with the token after each `Bearer ` (any case, any spaces) replaced by `<redacted>`; a token
    /// shorter than eight characters is a word, not a credential, and stays.
    package func redactingBearerTokens() -> String {
        guard range(of: "bearer", options: .caseInsensitive) != nil else { return self }
        var result = ""
        var rest = Substring(self)
        while let found = rest.range(of: "bearer", options: .caseInsensitive) {
            result += rest[..<found.upperBound]
            rest = rest[found.upperBound...]
            let spaces = rest.prefix { $0 == " " || $0 == "\t" }
            guard !spaces.isEmpty else { continue }
            let token = rest.dropFirst(spaces.count).prefix(while: Self.isBearerTokenCharacter)
            result += spaces
            rest = rest.dropFirst(spaces.count + token.count)
            result += token.count >= 8 ? "<redacted>" : String(token)
        }
        return result + rest
    }

    /// The characters of an RFC 6750 bearer token, and `\` for a JSON-escaped `/`.
    private static func isBearerTokenCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-._~+/=\\".contains(character))
    }
}
