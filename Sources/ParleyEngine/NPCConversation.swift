import GameWorld
import LanguageModels

/// One NPC's conversation: its session with its model, and the game context of each turn.
struct NPCConversation {
    let npc: NPCID
    let session: LanguageModelSession
    /// The game context when each turn was spoken, keyed by the turn's prompt entry id.
    var turnAnnotations: [String: [String: String]] = [:]
    /// Everything ever said, in order; the session's working transcript may be a trimmed version of it.
    var history: Transcript
    /// The NPC's original instructions, which every trimmed working transcript starts from.
    var instructions: Transcript.Instructions?
    /// The running summary of the turns trimmed from the working transcript.
    var summary = ""
    /// The summary and facts the last trim added to the instructions.
    var notes: String?
    /// The knowledge and goals the instructions hold now (entries whose conditions hold).
    var knowledge: [String] = []
    /// How many times the working transcript was trimmed.
    var trims = 0
    /// The facts the last trim was given and kept.
    var lastFactChoice: ContextRecovery.FactChoice?

    init(npc: NPCID, session: LanguageModelSession, turnAnnotations: [String: [String: String]] = [:]) {
        self.npc = npc
        self.session = session
        self.turnAnnotations = turnAnnotations
        self.history = session.transcript
        if case .instructions(let instructions)? = session.transcript.first { self.instructions = instructions }
    }

    /// The instructions as the model sees them now: the original ones, the knowledge and goals that hold, and the
    /// notes of the last trim.
    func composedInstructions() -> Transcript.Instructions? {
        guard var entry = instructions else { return nil }
        if !knowledge.isEmpty {
            entry.segments.append(
                .text(
                    .init(
                        content: "What you know and want now:\n" + knowledge.map { "- \($0)" }.joined(separator: "\n")))
            )
        }
        if let notes { entry.segments.append(.text(.init(content: notes))) }
        return entry
    }

    /// The conversation with its context, as saves keep it: the whole history, not the trimmed working copy.
    func annotated(npcName: String) -> AnnotatedTranscript {
        AnnotatedTranscript(
            transcript: history,
            annotations: [
                "npc": npc.rawValue, "npc.name": npcName, "model.id": session.model.id,
                "model.version": session.model.version, "parley.version": ParleyVersion.current,
            ],
            turnAnnotations: turnAnnotations)
    }
}

extension GameState {
    /// The game context of a turn: the player, what they carry, where they are.
    func annotations(talkingTo npc: NPCID?) -> [String: String] {
        var context = [
            "player": player.name, "gold": String(player.gold), "location": player.location.rawValue,
            "inventory": player.inventory.sorted { $0.item.rawValue < $1.item.rawValue }
                .map { "\($0.quantity) × \($0.item.rawValue)" }.joined(separator: ", "),
            "world": world.id,
        ]
        if let npc { context["npc"] = npc.rawValue }
        if !story.isEmpty { context["story"] = story.description }
        return context
    }
}
