import Foundation
import ParleyBasics

/// Removes credentials from text a server sent, before the text is thrown, shown, logged or kept.
///
/// Servers echo what they were sent: a 401 page that quotes the `Authorization` header, a debugging proxy's error
/// page, an error event in the middle of a stream. A redactor knows the credentials of a request (the values of
/// its sensitive headers, see ``HTTPHeaders/isSensitive(name:)``, and the token after a scheme such as `Bearer`)
/// and replaces each of them with ``placeholder`` where it stands as a whole token: not inside a longer word (a key
/// `goldgold` leaves "goldgoldsmith" alone), though punctuation may touch it (`key=sk-…&`, `"sk-…"`). A credential
/// shorter than ``minimumSecretLength`` characters is a word, not a secret, and is not redacted at all: with
/// `OPENAI_API_KEY=gold`, "8 gold" stays "8 gold". It also replaces any token that follows `Bearer ` (a credential it
/// was not told about; also from eight characters), so an echoed header never survives.
///
/// ```swift
/// let redactor = SecretRedactor(headers: request.headers)
/// let message = redactor.redact(response.bodyText)   // "invalid key Bearer <redacted>"
/// ```
///
/// ``HTTPClient`` applies the redactor of each request to the ``HTTPStatusError`` it leads to.
public struct SecretRedactor: Sendable, Equatable {
    /// What a credential is replaced with.
    public static let placeholder = "<redacted>"

    /// The fewest characters a credential has to be redacted: shorter ones are words ("gold"), not secrets, and
    /// replacing them would change what an NPC says.
    public static let minimumSecretLength = 8

    /// The credentials to remove, longest first, each also in its JSON-escaped form when that differs.
    public let secrets: [String]

    /// A redactor for these credentials; those shorter than ``minimumSecretLength`` characters are ignored.
    ///
    /// - Parameter secrets: The credentials, for example an API key.
    public init(secrets: some Sequence<String>) {
        var forms = Set<String>()
        for secret in secrets where secret.count >= Self.minimumSecretLength {
            forms.insert(secret)
            // JSON may escape "/" as "\/"; an echo inside a JSON string is then written that way.
            let escaped = secret.replacingOccurrences(of: "/", with: "\\/")
            if escaped != secret { forms.insert(escaped) }
        }
        self.secrets = forms.sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
    }

    /// A redactor for the credentials in a request's headers: the whole value of each sensitive header, and the
    /// part after its scheme (`Bearer sk-…` gives `Bearer sk-…` and `sk-…`); neither when that part is shorter than
    /// ``minimumSecretLength`` (`Bearer gold`).
    ///
    /// - Parameter headers: The request's headers.
    public init(headers: HTTPHeaders) {
        var secrets: [String] = []
        for field in headers where HTTPHeaders.isSensitive(name: field.name) {
            let value = field.value.trimmingCharacters(in: .whitespaces)
            guard let space = value.firstIndex(of: " ") else {
                secrets.append(value)
                continue
            }
            let credential = value[value.index(after: space)...].trimmingCharacters(in: .whitespaces)
            guard credential.count >= Self.minimumSecretLength else { continue }
            secrets += [value, credential]
        }
        self.init(secrets: secrets)
    }

    /// A redactor that knows no credential; it still removes `Bearer` tokens.
    public init() {
        secrets = []
    }

    /// Whether this redactor knows no credential.
    public var isEmpty: Bool { secrets.isEmpty }

    /// The text with every known credential, and every token after `Bearer `, replaced by ``placeholder``.
    ///
    /// - Parameter text: Text that came from a server, or an error's description built from it.
    /// - Returns: The text without credentials.
    public func redact(_ text: String) -> String {
        Self.redactBearerTokens(in: redactKnown(text))
    }

    /// The text with every known credential replaced by ``placeholder``, and nothing else changed: for what a
    /// model said, where the word "Bearer" may be just a word.
    ///
    /// - Parameter text: The text.
    /// - Returns: The text without the known credentials.
    public func redactKnown(_ text: String) -> String {
        redactKnown(text, after: nil, before: nil)
    }

    /// The text with every known credential that stands as a whole token replaced by ``placeholder``, where the text
    /// is a piece of a longer one: `previous` is the character before it, `next` the one after it (`nil` at an end),
    /// so a credential at the piece's edge is judged by its real neighbours.
    ///
    /// - Parameters:
    ///   - text: The piece.
    ///   - previous: The character before the piece, if any.
    ///   - next: The character after the piece, if any.
    /// - Returns: The piece without the known credentials.
    package func redactKnown(_ text: String, after previous: Character?, before next: Character?) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            let (first, last) = (secret.first!, secret.last!)
            var searchStart = result.startIndex
            while let found = result.range(of: secret, range: searchStart..<result.endIndex) {
                let before =
                    found.lowerBound == result.startIndex ? previous : result[result.index(before: found.lowerBound)]
                let after = found.upperBound == result.endIndex ? next : result[found.upperBound]
                // A whole token: a word character at the credential's edge must not continue into a neighbour.
                let whole =
                    !(Self.isWordCharacter(first) && before.map(Self.isWordCharacter) == true)
                    && !(Self.isWordCharacter(last) && after.map(Self.isWordCharacter) == true)
                if whole {
                    let offset = result.distance(from: result.startIndex, to: found.lowerBound)
                    result.replaceSubrange(found, with: Self.placeholder)
                    searchStart = result.index(result.startIndex, offsetBy: offset + Self.placeholder.count)
                } else {
                    searchStart = result.index(after: found.lowerBound)
                }
            }
        }
        return result
    }

    /// The bytes with every known credential that stands as a whole token replaced by ``placeholder``.
    ///
    /// - Parameter data: Bytes that came from a server, for example an error body.
    /// - Returns: The bytes without the known credentials.
    public func redact(_ data: Data) -> Data {
        var result = data
        let placeholder = Data(Self.placeholder.utf8)
        // Any byte of a multi-byte UTF-8 character counts as a word's: a letter such as "é" continues a word.
        func isWordByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
                || (0x61...0x7A).contains(byte)
        }
        for secret in secrets {
            let needle = Data(secret.utf8)
            let (first, last) = (needle.first!, needle.last!)
            var searchStart = result.startIndex
            while let range = result.range(of: needle, in: searchStart..<result.endIndex) {
                let before = range.lowerBound > result.startIndex ? result[range.lowerBound - 1] : nil
                let after = range.upperBound < result.endIndex ? result[range.upperBound] : nil
                let whole =
                    !(isWordByte(first) && before.map(isWordByte) == true)
                    && !(isWordByte(last) && after.map(isWordByte) == true)
                if whole {
                    result.replaceSubrange(range, with: placeholder)
                    searchStart = range.lowerBound + placeholder.count
                } else {
                    searchStart = range.lowerBound + 1
                }
            }
        }
        return result
    }

    /// Whether a character continues a word: a letter, a digit or `_`.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// Replaces the token after each `Bearer ` (any case, any spaces) with ``placeholder``.
    static func redactBearerTokens(in text: String) -> String {
        text.redactingBearerTokens()
    }
}
