import ParleyHTTP

/// Removes known secrets from text that arrives in pieces, where a secret may be split across two pieces.
///
/// Each piece comes out at once, except a tail that could be the start of a secret: that waits for the next piece
/// (or `finish()`), which shows whether it is one. Ordinary text, which never looks like the start of an API key,
/// is not delayed at all.
struct StreamingRedactor {
    private let redactor: SecretRedactor
    private var pending = ""

    init(_ redactor: SecretRedactor) {
        self.redactor = redactor
    }

    /// Takes the next piece and returns the text that is safe to show now.
    mutating func feed(_ piece: String) -> String {
        guard !redactor.isEmpty else { return piece }
        pending = redactor.redactKnown(pending + piece)
        let held = heldBack(pending)
        let ready = String(pending.dropLast(held))
        pending = String(pending.suffix(held))
        return ready
    }

    /// Returns the text still held back, once no piece follows.
    mutating func finish() -> String {
        defer { pending = "" }
        return redactor.redactKnown(pending)
    }

    /// The length, in characters, of the longest end of `text` that is the start (not the whole) of a secret.
    private func heldBack(_ text: String) -> Int {
        var longest = 0
        for secret in redactor.secrets {
            var length = min(secret.count - 1, text.count)
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
