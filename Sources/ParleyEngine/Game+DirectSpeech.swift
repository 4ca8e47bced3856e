import GameWorld
import LanguageModels

// Talking to an NPC directly: a game that decides who is in earshot says a line to an NPC, wherever Parley thinks the
// player is.

extension Game {
    /// Says a line to an NPC directly, wherever the player and the NPC are: the game decides who is in earshot.
    ///
    /// The NPC answers as to a line said while talking to it (its tools, its rules, the trade guard); the player is
    /// talking to it afterwards, so `accept`, `decline` and lines said with ``perform(_:output:)`` go to it. No
    /// greeting comes first: the line is the whole turn. The world's rules still hold: a trade or a gift with an NPC
    /// who is not where the player is, is refused (`npcNotPresent`); push the player's or the NPC's location
    /// (``apply(_:)``) when the game lets them trade.
    ///
    /// - Parameters:
    ///   - text: What the player says.
    ///   - npc: The NPC spoken to.
    ///   - output: Receives what the game shows.
    public func say(_ text: String, to npc: NPCID, output: @Sendable (GameOutput) -> Void) async {
        await Task.yield()  // As `perform(_:output:)` does: an in-process model's turn never suspends.
        guard state.world.npcs[npc] != nil else {
            return output(.problem("There is no NPC \"\(npc.rawValue)\" in this world."))
        }
        let goalWasReached = state.isGoalReached
        partner = npc
        await speak(Prompt(text), to: npc, output: output)
        if !goalWasReached, state.isGoalReached { output(.goalReached(state.world.goal.description)) }
    }

    /// The NPCs the player has talked to in this game or in the save it continues, whether or not their
    /// conversations were read yet.
    public var npcsTalkedTo: Set<NPCID> {
        Set(conversations.keys).union(restored?.npcs ?? [])
    }
}
