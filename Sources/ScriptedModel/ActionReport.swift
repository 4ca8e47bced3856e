import LanguageModels

/// What `offerTrade`, `giveItem` or `acceptGift` answered: a status (`pending`, `given`, `accepted`, `refused`), the
/// game's summary, and its reasons for refusing.
struct ActionReport: Sendable, Equatable {
    /// `pending`, `given`, `accepted` or `refused` (a tool that answered in plain text counts as refused).
    let status: String
    /// The game's summary, if any.
    let summary: String?
    /// The game's reasons for refusing.
    let reasons: [String]

    /// Whether the game refused.
    var isRefused: Bool { status == "refused" }

    /// Reads `{"status", "summary", "reasons"}`.
    ///
    /// - Parameter content: The tool's output.
    init(_ content: GeneratedContent) {
        status = content.string("status") ?? "refused"
        summary = content.string("summary")
        if case .array(let elements)? = content[property: "reasons"]?.kind {
            reasons = elements.compactMap { if case .string(let text) = $0.kind { text } else { nil } }
        } else {
            reasons = []
        }
    }

    /// A refusal in the tool's own words, for a tool that answered in text (an error, a wrong argument).
    ///
    /// - Parameter text: The tool's text.
    init(refusal text: String) {
        status = "refused"
        summary = nil
        reasons = [text]
    }
}
