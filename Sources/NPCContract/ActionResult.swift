import LanguageModels

/// What `offerTrade`, `giveItem` and `acceptGift` answer: the game's decision, its summary when it acted, and
/// every reason when it refused.
///
/// ```json
/// {"status": "pending", "summary": "Mira Quickcoin offers 1 Brass Lantern for 20 gold."}
/// {"status": "given", "summary": "Hesper gives you 1 × Loaf of Bread."}
/// {"status": "refused", "reasons": ["The player offers 25 gold but has only 14."],
///  "refusals": [{"kind": "tradeRule", "rejection": {"playerCannotPay": {"gold": 25, "available": 14}}}]}
/// ```
///
/// `summary` is left out when there is none, and `reasons` and `refusals` unless the game refused (or gave reasons
/// anyway).
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

    /// `{"status", "summary"?, "reasons"?, "refusals"?}`: `reasons` are the sentences a model reads, `refusals` the
    /// same reasons as data, in the same order (see `RefusalReason.details`).
    public var generatedContent: GeneratedContent {
        var builder = ContentBuilder()
        builder.add("status", status.rawValue)
        builder.add("summary", summary)
        if status == .refused || !reasons.isEmpty {
            builder.add("reasons", elements: reasons.map(\.message))
            builder.add("refusals", elements: reasons.map(\.details))
        }
        return builder.content
    }

    /// Reads a result. Each reason reads back typed from its `refusals` entry when there is one that reads, and as
    /// `.stated` with its sentence otherwise (an output written before `refusals` existed, or by hand).
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
        let messages = try reader.optional("reasons")?.elements().map { try $0.string() } ?? []
        let details = (try? reader.optional("refusals")?.elements()) ?? []
        reasons = messages.enumerated().map { index, message in
            index < details.count ? RefusalReason(details: details[index], message: message) : .stated(message)
        }
    }
}
