/// What `TradeRules` decided about an offer: accepted, or rejected with every reason.
public enum TradeVerdict: Hashable, Sendable, Codable {
    /// The offer is acceptable; `GameState.apply(.traded(offer:))` will carry it out.
    case accepted
    /// The offer is not acceptable, for all of these reasons (never empty).
    case rejected([TradeRejection])

    /// Whether the offer was accepted.
    public var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }

    /// The reasons for rejection; empty when accepted.
    public var rejections: [TradeRejection] {
        if case .rejected(let reasons) = self { return reasons }
        return []
    }
}
