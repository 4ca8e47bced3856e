import LanguageModels

/// What `offerTrade`, `giveItem` and `acceptGift` answer: the game's decision, its summary when it acted, and
/// every reason when it refused.
///
/// ```json
/// {"status": "pending", "summary": "Mira Quickcoin offers 1 Brass Lantern for 20 gold."}
/// {"status": "given", "summary": "Hesper gives you 1 × Loaf of Bread."}
/// {"status": "refused", "reasons": ["The player offers 25 gold but has only 14."]}
/// ```
///
/// `summary` is left out when there is none, and `reasons` unless the game refused (or gave reasons anyway).
public struct ActionResult: Sendable, Hashable, ConvertibleToGeneratedContent, ConvertibleFromGeneratedContent {
    /// The game's decision.
    public var status: ActionStatus
    /// What happened, in words, when the game acted.
    public var summary: String?
    /// Why the game refused, every reason, in order.
    public var reasons: [RefusalReason]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - status: The decision.
    ///   - summary: What happened, in words.
    ///   - reasons: Why the game refused.
    public init(status: ActionStatus, summary: String? = nil, reasons: [RefusalReason] = []) {
        self.status = status
        self.summary = summary
        self.reasons = reasons
    }

    /// The game refused, for these reasons.
    ///
    /// - Parameter reasons: Every reason.
    /// - Returns: A `refused` result.
    public static func refused(_ reasons: [RefusalReason]) -> ActionResult {
        ActionResult(status: .refused, reasons: reasons)
    }

    /// Whether the game refused.
    public var isRefused: Bool { status == .refused }

    // MARK: - JSON

    /// `{"status", "summary"?, "reasons"?}`.
    public var generatedContent: GeneratedContent {
        var builder = ContentBuilder()
        builder.add("status", status.rawValue)
        builder.add("summary", summary)
        if status == .refused || !reasons.isEmpty { builder.add("reasons", elements: reasons.map(\.message)) }
        return builder.content
    }

    /// Reads a result; each reason reads back as `.stated` with its message.
    ///
    /// - Parameter content: A tool's output.
    /// - Throws: `GeneratedContent.ParsingError` when `status` is missing or unknown, or a member has the wrong type.
    public init(_ content: GeneratedContent) throws {
        let reader = ContentReader(content, reading: ActionResult.self)
        let statusReader = try reader.required("status", "String")
        let name = try statusReader.string()
        guard let status = ActionStatus(rawValue: name) else {
            throw statusReader.error(
                "expected one of \(ActionStatus.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(name)\"")
        }
        self.status = status
        summary = try reader.optionalString("summary")
        reasons = try reader.optional("reasons")?.elements().map { .stated(try $0.string()) } ?? []
    }
}
