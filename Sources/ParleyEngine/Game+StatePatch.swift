import GameWorld
import SaveGames

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
        for change in changes { saveMarks.pushed.add(change) }
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

extension GameHost {
    /// Applies a patch of the game's own state (``Game/apply(_:)``), then autosaves it.
    ///
    /// - Parameters:
    ///   - patch: What changes.
    ///   - output: Receives `goalReached` when the patch reached the world's goal, and a problem when the autosave
    ///     fails (the game keeps the patch, and the next autosave writes it).
    /// - Returns: What changed.
    /// - Throws: ``StatePatchError`` listing every problem; nothing changed, nothing was saved.
    @discardableResult
    public func apply(
        _ patch: StatePatch, output: @Sendable (GameOutput) -> Void
    ) async throws(StatePatchError)
        -> [StateChange]
    {
        let reached = await game.state.isGoalReached
        let changes = try await game.apply(patch)
        let state = await game.state
        if !reached, state.isGoalReached { output(.goalReached(state.world.goal.description)) }
        if !changes.isEmpty { await autosaveChanges(output: output) }
        return changes
    }
}

extension StateChanges {
    /// Adds what a pushed change changed, so the next autosave writes it: the player, an NPC, a flag, a counter, an
    /// attitude or a quest.
    ///
    /// - Parameter change: A change a ``StatePatch`` made.
    mutating func add(_ change: StateChange) {
        switch change {
        case .playerName, .playerGold, .playerItem, .playerLocation: player = true
        case .npcGold(let npc, _, _), .npcItem(let npc, _, _, _), .npcLocation(let npc, _, _): npcs.insert(npc)
        case .attitude(let npc, _, _): attitudes.insert(npc)
        case .flagSet(let flag), .flagCleared(let flag): flags.insert(flag)
        case .counter(let name, _, _): counters.insert(name)
        case .quest(let quest, _, _): quests.insert(quest)
        }
    }
}
