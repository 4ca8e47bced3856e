/// What the game shows the player, piece by piece, as a command runs.
public enum GameOutput: Sendable, Equatable {
    /// A line of narration: a description, a result, a list.
    case narration(String)
    /// An NPC is thinking of an answer (a front end may show a spinner until `speechBegan`).
    case thinking(npc: String)
    /// An NPC starts speaking; the text follows as `speech` pieces.
    case speechBegan(npc: String)
    /// More of what the NPC says, as it is generated.
    case speech(String)
    /// The NPC has finished speaking.
    case speechEnded
    /// News about a turn that is taking long, while the NPC is still thinking: the model server did not answer and
    /// is asked again, or asks the game to wait (`the server did not answer; trying again 2/3`). The turn goes on;
    /// a front end may show it beside its spinner. Sent only for model servers, only when it happens.
    case notice(String)
    /// Something went wrong, in words the player can act on; nothing was lost.
    case problem(String)
    /// The player reached the world's goal.
    case goalReached(String)
}
