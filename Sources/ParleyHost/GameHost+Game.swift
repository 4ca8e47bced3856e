import GameWorld
import ParleyEngine
import SaveGames

// The game's own calls, through the host: each runs on the game (`Game+DirectSpeech.swift`, `Game+WorldEvents.swift`,
// `Game+StatePatch.swift` in ParleyEngine), then autosaves.

extension GameHost {
    /// Says a line to an NPC directly (``Game/say(_:to:output:)``), then autosaves.
    ///
    /// - Parameters:
    ///   - text: What the player says.
    ///   - npc: The NPC spoken to.
    ///   - output: Receives what the game shows.
    public func say(_ text: String, to npc: NPCID, output: @Sendable (GameOutput) -> Void) async {
        await game.say(text, to: npc, output: output)
        await autosaveChanges(output: output)
    }
}

extension GameHost {
    /// Tells NPCs what happened (``Game/tell(_:output:)``), then autosaves.
    ///
    /// - Parameters:
    ///   - event: What happened, and who witnesses it.
    ///   - output: Receives what the game shows.
    /// - Returns: The witnesses.
    /// - Throws: ``WorldEventError``; nothing changed.
    @discardableResult
    public func tell(
        _ event: WorldEvent, output: @Sendable (GameOutput) -> Void
    ) async throws(WorldEventError)
        -> [NPCID]
    {
        let witnesses = try await game.tell(event, output: output)
        await autosaveChanges(output: output)
        return witnesses
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

extension GameHost {
    /// Says a spoken line to an NPC directly (``Game/say(_:to:output:)-(HeardSpeech,_,_)``), then autosaves: its
    /// recording notes what was heard, how surely, and under which acting bar. Below the bar
    /// (`heard.mayAct` is `false`) the NPC answers but cannot act, and the save holds the refusal, not the bar.
    ///
    /// - Parameters:
    ///   - heard: What the speech recogniser heard, with its acting bar.
    ///   - npc: The NPC spoken to.
    ///   - output: Receives what the game shows.
    public func say(_ heard: HeardSpeech, to npc: NPCID, output: @Sendable (GameOutput) -> Void) async {
        await game.say(heard, to: npc, output: output)
        await autosaveChanges(output: output)
    }
}
