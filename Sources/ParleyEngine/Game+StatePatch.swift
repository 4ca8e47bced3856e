import GameWorld

// The game's own state, pushed in: a game with a world of its own sets the player's and the NPCs' gold, inventories
// and places and the story's flags, counters and quests (`StatePatch`), and the NPCs see it on their next turn.

extension Game {
    /// Applies a patch of the game's own state: all of it, or, when any part is wrong, none of it.
    ///
    /// The NPCs see the new state on their next turn: their tools (`lookUpStock`, `inspectPlayer`, the trade guard)
    /// and their dialogue rules' conditions read the state as it is then. The next save keeps it (``saveDelta(playTime:)``
    /// names what the patch changed). A patch fires no beats and makes no NPC speak; an offer already waiting stays
    /// waiting, and is checked against the new state when the player accepts it. When the patch moves the player or
    /// the NPC they talk to apart, the conversation ends, as walking away ends it.
    ///
    /// ```swift
    /// var patch = StatePatch()
    /// patch.player.inventory = ["bread": 2]
    /// patch.npcs["mira"] = .init(gold: 200, inventory: ["lantern": 3])
    /// let changes = try await game.apply(patch)   // [.playerItem("bread", from: 2, to: 2)...]
    /// ```
    ///
    /// - Parameter patch: What changes.
    /// - Returns: What changed, each with the value before and after; values set to what they were are left out.
    /// - Throws: ``StatePatchError`` listing every problem, each at its JSON path; the game is then unchanged.
    @discardableResult
    public func apply(_ patch: StatePatch) throws(StatePatchError) -> [StateChange] {
        try patch.check(in: state.world)
        // In the box's lock: a turn whose tools run meanwhile sees the state before or after, never half of it.
        let changes = shared.update { patch.apply(to: &$0.game) }
        for change in changes { saveMarks.pushed.append(change) }
        let moved = changes.contains { change in
            switch change {
            case .playerLocation: true
            case .npcLocation(let npc, _, _): npc == partner
            default: false
            }
        }
        if moved, let partner, state.world.npcs[partner]?.location != state.player.location { self.partner = nil }
        return changes
    }
}
