import Foundation
import ParleyBasics

/// Removes credentials from text a server sent, before the text is thrown, shown, logged or kept.
///
/// Servers echo what they were sent: a 401 page that quotes the `Authorization` header, a debugging proxy's error
/// page, an error event in the middle of a stream. A redactor knows the credentials of a request (the values of
/// its sensitive headers, see ``HTTPHeaders/isSensitive(name:)``, and the token after a scheme such as `Bearer`)
/// and replaces each of them, wherever it appears, with ``placeholder``. It also replaces any token that follows
/// `Bearer ` (a credential it was not told about), so an echoed header never survives.
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

    /// The credentials to remove, longest first, each also in its JSON-escaped form when that differs.
    public let secrets: [String]

    /// A redactor for these credentials; empty strings are ignored.
    ///
    /// - Parameter secrets: The credentials, for example an API key.
    public init(secrets: some Sequence<String>) {
        var forms = Set<String>()
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            // JSON may escape "/" as "\/"; an echo inside a JSON string is then written that way.
            let escaped = secret.replacingOccurrences(of: "/", with: "\\/")
            if escaped != secret { forms.insert(escaped) }
        }
        self.secrets = forms.sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
    }

    /// A redactor for the credentials in a request's headers: the whole value of each sensitive header, and the
    /// part after its scheme (`Bearer sk-…` gives `Bearer sk-…` and `sk-…`).
    ///
    /// - Parameter headers: The request's headers.
    public init(headers: HTTPHeaders) {
        var secrets: [String] = []
        for field in headers where HTTPHeaders.isSensitive(name: field.name) {
            let value = field.value.trimmingCharacters(in: .whitespaces)
            secrets.append(value)
            if let space = value.firstIndex(of: " ") {
                secrets.append(value[value.index(after: space)...].trimmingCharacters(in: .whitespaces))
            }
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
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.placeholder)
        }
        return result
    }

    /// The bytes with every known credential replaced by ``placeholder``.
    ///
    /// - Parameter data: Bytes that came from a server, for example an error body.
    /// - Returns: The bytes without the known credentials.
    public func redact(_ data: Data) -> Data {
        var result = data
        let placeholder = Data(Self.placeholder.utf8)
        for secret in secrets {
            let needle = Data(secret.utf8)
            var searchStart = result.startIndex
            while let range = result.range(of: needle, in: searchStart..<result.endIndex) {
                result.replaceSubrange(range, with: placeholder)
                searchStart = range.lowerBound + placeholder.count
            }
        }
        return result
    }

    /// Replaces the token after each `Bearer ` (any case, any spaces) with ``placeholder``.
    static func redactBearerTokens(in text: String) -> String {
        text.redactingBearerTokens()
    }
}
