/// An effect the game refused: the world's rules did not allow its events, so it changed nothing.
public struct EffectRefusal: Hashable, Sendable, Error, CustomStringConvertible {
    /// The effect.
    public var effect: Effect
    /// Why: the error of the event that did not apply.
    public var error: GameEventError

    /// Creates a refusal.
    ///
    /// - Parameters:
    ///   - effect: The effect refused.
    ///   - error: Why.
    public init(effect: Effect, error: GameEventError) {
        self.effect = effect
        self.error = error
    }

    /// `{"give":"brass_compass","quantity":1} was refused: cannot apply "...": aurelio has 0 × brass_compass, not 1`.
    public var description: String { "\(effect) was refused: \(error)" }
}
