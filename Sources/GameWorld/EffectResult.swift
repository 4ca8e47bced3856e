/// What running a list of effects did: the events applied, the offers to make, and the effects refused.
public struct EffectResult: Hashable, Sendable {
    /// The events applied to the state, in order.
    public var events: [GameEvent]
    /// The offers the effects make, in order, for the engine's trade guard.
    public var offers: [TradeOffer]
    /// The effects the game refused, each with why; they changed nothing.
    public var refusals: [EffectRefusal]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - events: The events applied.
    ///   - offers: The offers to make.
    ///   - refusals: The effects refused.
    public init(events: [GameEvent] = [], offers: [TradeOffer] = [], refusals: [EffectRefusal] = []) {
        self.events = events
        self.offers = offers
        self.refusals = refusals
    }

    /// The flags the events set, in order: what `flagSet` beats react to.
    public var flagsSet: [String] {
        events.compactMap { if case .setFlag(let name) = $0 { name } else { nil } }
    }
}
