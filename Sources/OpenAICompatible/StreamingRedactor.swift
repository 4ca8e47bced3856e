import ParleyHTTP

/// Removes known secrets from text that arrives in pieces, where a secret may be split across two pieces.
///
/// Each piece comes out at once, except a tail that could be the start of a secret: that waits for the next piece
/// (or `finish()`), which shows whether it is one. Ordinary text, which never looks like the start of an API key,
/// is not delayed at all.
struct StreamingRedactor {
    private let redactor: SecretRedactor
    private var pending = ""
    /// The last character shown, which decides whether a secret at the start of the next piece is a whole token.
    private var shown: Character?

    init(_ redactor: SecretRedactor) {
        self.redactor = redactor
    }

    /// Takes the next piece and returns the text that is safe to show now.
    mutating func feed(_ piece: String) -> String {
        guard !redactor.isEmpty else { return piece }
        pending += piece
        let held = heldBack(pending)
        let kept = String(pending.suffix(held))
        // A secret is redacted only as a whole token, so one at the end of what is shown is judged by the character
        // after it, which is the first one held back.
        let ready = redactor.redactKnown(String(pending.dropLast(held)), after: shown, before: kept.first)
        pending = kept
        shown = ready.last ?? shown
        return ready
    }

    /// Returns the text still held back, once no piece follows.
    mutating func finish() -> String {
        defer { pending = "" }
        return redactor.redactKnown(pending, after: shown, before: nil)
    }

    /// The length, in characters, of the longest end of `text` that is the start of a secret, or the whole of one
    /// (whether that is a whole token depends on the character after it).
    private func heldBack(_ text: String) -> Int {
        var longest = 0
        for secret in redactor.secrets {
            var length = min(secret.count, text.count)
            while length > longest {
                if text.hasSuffix(secret.prefix(length)) {
                    longest = length
                    break
                }
                length -= 1
            }
        }
        return longest
    }
}
