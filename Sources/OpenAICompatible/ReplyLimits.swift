import ParleyBasics

/// How many bytes a reply may take, from the request's token limit, so that a server that ignores `max_tokens`
/// (or something else answering at its address) cannot fill the memory, a save or a recording.
///
/// A token is a few bytes of text; 32 bytes a token leaves room for any script and for JSON escapes. The content
/// (text, reasoning and tool-call arguments) may take `max_tokens` × 32 bytes, at least 64 KiB, at most the
/// configuration's `maximumReplyBytes` (which is also the limit when the request sets no `max_tokens`). The body
/// around it is bounded too: a whole JSON answer may add 64 KiB of framing, and a stream, whose every token comes
/// in an event of a few hundred bytes, sixteen times the content, at most 64 MiB.
struct ReplyLimits: Sendable, Equatable {
    static let bytesPerToken = 32
    static let minimumContentBytes = 64 << 10
    static let framingBytes = 64 << 10
    static let streamBytesPerContentByte = 16
    static let maximumStreamBytes = 64 << 20
    /// The most bytes of an error body kept (to quote the server's explanation); the rest is not read.
    static let errorBodyBytes = 64 << 10

    /// The tokens the request allows, `max_tokens` as sent; `nil` when it sets no limit.
    let maximumTokens: Int?
    /// The most bytes of text, reasoning and tool-call arguments.
    let contentBytes: Int

    /// The limits of a request.
    ///
    /// - Parameters:
    ///   - maximumTokens: The `max_tokens` sent, or `nil`.
    ///   - hardCap: The configuration's `maximumReplyBytes`.
    init(maximumTokens: Int?, hardCap: Int) {
        self.maximumTokens = maximumTokens
        let cap = max(hardCap, 1)
        guard let maximumTokens else {
            contentBytes = cap
            return
        }
        contentBytes = min(
            max(max(maximumTokens, 0).saturatingMultiplied(by: Self.bytesPerToken), Self.minimumContentBytes), cap)
    }

    /// The most bytes of a whole (not streamed) response body.
    var wholeBodyBytes: Int { contentBytes.saturatingAdding(Self.framingBytes) }

    /// The most bytes of a streamed response body.
    var streamBytes: Int {
        max(
            min(contentBytes.saturatingMultiplied(by: Self.streamBytesPerContentByte), Self.maximumStreamBytes),
            wholeBodyBytes)
    }

    /// Why a reply of more than `bytes` bytes is too large, for `ModelServerError.responseTooLarge`.
    func explanation(passing bytes: Int) -> String {
        let allowance =
            maximumTokens.map {
                "the request allows \($0) tokens (max_tokens) at up to \(Self.bytesPerToken) bytes a token"
            }
            ?? "the request sets no max_tokens, and maximumReplyBytes is \(contentBytes)"
        return "the reply passed \(bytes) bytes; \(allowance)"
    }
}

extension ReplyLimits {
    /// A reply passed its limit.
    struct Exceeded: Error {
        /// The limit it passed, in bytes.
        let bytes: Int
    }
}
