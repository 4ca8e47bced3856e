import GameWorld
import LanguageModels
import NPCContract

// The game tells its NPCs what happened in its own world (`WorldEvent`): each witness gets it in its conversation,
// and with `react` answers it at once.

extension Game {
    /// Tells NPCs what happened: each witness gets the event in its conversation as a witnessed event
    /// (`WitnessedEvent.happened`), saved with it; with `react`, each answers it at once, in order, as it answers a
    /// line (its tools, its rules, the trade guard). Without `react` no model is asked: the NPC knows of it on its
    /// next turn.
    ///
    /// ```swift
    /// try await game.tell(WorldEvent(text: "The player draws a sword.", kind: "swordDrawn",
    ///                                witnesses: .npcs(["oona"]), react: true)) { render($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - event: What happened, and who witnesses it.
    ///   - output: Receives what the game shows: the witnesses' answers, when they react.
    /// - Returns: The witnesses, in the order they got it (none when `here` and nobody is here).
    /// - Throws: ``WorldEventError`` listing every problem of the event; nothing changed.
    @discardableResult
    public func tell(
        _ event: WorldEvent, output: @Sendable (GameOutput) -> Void
    ) async throws(WorldEventError)
        -> [NPCID]
    {
        await Task.yield()  // As `perform(_:output:)` does: an in-process model's turn never suspends.
        try event.check(in: state.world)
        let witnesses = event.witnesses(in: state)
        let goalWasReached = state.isGoalReached
        let happened = WitnessedEvent.happened(text: event.text, kind: event.kind)
        for npc in witnesses {
            let prompt = happened.prompt(player: state.player.name, in: state.world)
            if event.react {
                await speak(prompt, to: npc, output: output)
            } else {
                await witnessQuietly(prompt, npc: npc, output: output)
            }
        }
        if !goalWasReached, state.isGoalReached { output(.goalReached(state.world.goal.description)) }
        return witnesses
    }

    /// Puts a witnessed event into an NPC's conversation without a turn: the prompt alone joins its history (with
    /// the game context as the turn's annotations) and is recorded, so saves, the inspector and replays have it.
    func witnessQuietly(_ prompt: Prompt, npc npcID: NPCID, output: (GameOutput) -> Void) async {
        let conversation: NPCConversation
        do {
            conversation = try await self.conversation(with: npcID)
        } catch {
            return output(.problem("\(state.world.name(of: npcID)) cannot take in what happened: \(error)"))
        }
        let entry = Transcript.Entry.prompt(.init(segments: prompt.segments))
        let annotations = state.annotations(talkingTo: npcID)
        conversation.session.transcript.append(entry)
        conversations[npcID]?.history.append(entry)
        conversations[npcID]?.turnAnnotations[entry.id] = annotations
        saveMarks.changedConversations.insert(npcID)
        record(
            TurnRecording(
                npc: npcID, instructions: conversation.session.transcript.first, input: entry, context: annotations,
                stateBefore: DynamicState(state), entries: [entry], modelID: TurnRecording.witnessedModelID,
                modelVersion: state.world.contentHash.hex, totalMilliseconds: 0))
    }
}
