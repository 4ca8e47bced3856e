extension GameState {
    /// Runs effects for an NPC, in order, each through `apply(_:rules:)`.
    ///
    /// Each effect is all or nothing: its events (`Effect.events(for:in:)`) apply together, or, when one does not
    /// fit the state, none of them does and the effect is listed in `EffectResult.refusals`. A refused effect does
    /// not stop the ones after it: a beat that advances a quest and gives a reward still advances the quest when
    /// the NPC no longer has the reward. Offers are collected for the engine, not applied.
    ///
    /// ```swift
    /// let result = state.apply([.advanceQuest("locket", stage: "returned"), .give("brass_compass", quantity: 1)],
    ///                          npc: "aurelio")
    /// result.events     // [.advancedQuest(...), .received(item: "brass_compass", ...)]
    /// ```
    ///
    /// - Parameters:
    ///   - effects: The effects, in order.
    ///   - npc: The NPC whose beat or rule they belong to.
    ///   - rules: The trade rules and limits; `.standard` by default.
    /// - Returns: The events applied, the offers, and the refusals.
    @discardableResult
    public mutating func apply(_ effects: [Effect], npc: NPCID, rules: TradeRules = .standard) -> EffectResult {
        var result = EffectResult()
        for effect in effects {
            if let terms = effect.offerTerms {
                result.offers.append(terms.tradeOffer(npc: npc))
                continue
            }
            let events = effect.events(for: npc, in: self)
            var next = self
            do {
                for event in events { try next.apply(event, rules: rules) }
                self = next
                result.events += events
            } catch {
                result.refusals.append(EffectRefusal(effect: effect, error: error))
            }
        }
        return result
    }

    /// Fires an NPC's beat: records it (`GameEvent.firedBeat`) and runs its effects.
    ///
    /// The line to say is `beat.line(occurrence:)` with the number of times it fired before, which is
    /// `story.timesFired(beat.id, of: npc) - 1` afterwards. Whether the beat should fire (its trigger, condition
    /// and `once`) is for the caller to decide: see `NPC.beats(for:in:)`.
    ///
    /// - Parameters:
    ///   - beat: The beat.
    ///   - npc: The NPC whose beat it is.
    ///   - rules: The trade rules and limits; `.standard` by default.
    /// - Returns: The events applied (the `firedBeat` event first), the offers, and the refused effects.
    /// - Throws: `GameEventError` when the NPC does not have the beat; the state is then unchanged.
    @discardableResult
    public mutating func fire(
        _ beat: Beat, of npc: NPCID, rules: TradeRules = .standard
    ) throws(GameEventError)
        -> EffectResult
    {
        let fired = GameEvent.firedBeat(npc: npc, beat: beat.id)
        try apply(fired, rules: rules)
        var result = apply(beat.effects, npc: npc, rules: rules)
        result.events.insert(fired, at: 0)
        return result
    }
}
