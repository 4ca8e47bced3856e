import GameWorld
import LanguageModels

/// One NPC's conversation: its session with its model, and the game context of each turn.
package struct NPCConversation {
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
    /// Where in ``history`` the working transcript's entries after its instructions start: 1 until a trim (the whole
    /// history), then the first entry the last trim kept. Between trims both grow by the same entries, so the
    /// working transcript is always the instructions (with knowledge and notes) and the history from here on.
    var workingStart = 1
    /// The facts the last trim was given and kept.
    var lastFactChoice: ContextRecovery.FactChoice?

    /// A conversation whose history is its session's transcript (a new one, or one never trimmed).
    init(npc: NPCID, session: LanguageModelSession, turnAnnotations: [String: [String: String]] = [:]) {
        self.npc = npc
        self.session = session
        self.turnAnnotations = turnAnnotations
        self.history = session.transcript
        if case .instructions(let instructions)? = session.transcript.first { self.instructions = instructions }
    }

    /// A saved conversation, as it was: its whole history, and its working transcript rebuilt from the history and
    /// the working context its annotations hold (see ``WorkingContext``), so the model reads exactly what it read
    /// before the save.
    ///
    /// - Parameters:
    ///   - saved: The saved conversation.
    ///   - makeSession: Makes the NPC's session on a transcript.
    init(npc: NPCID, saved: AnnotatedTranscript, makeSession: (Transcript) -> LanguageModelSession) {
        let history = saved.transcript
        let context = WorkingContext(annotations: saved.annotations, historyCount: history.count)
        var working = history
        if let context, case .instructions(var instructions)? = history.first {
            if let notes = context.notes { instructions.segments.append(.text(.init(content: notes))) }
            working = Transcript(entries: [.instructions(instructions)] + history[context.workingStart...])
        }
        self.init(npc: npc, session: makeSession(working), turnAnnotations: saved.turnAnnotations)
        self.history = history
        if case .instructions(let instructions)? = history.first { self.instructions = instructions }
        if let context {
            summary = context.summary
            notes = context.notes
            trims = context.trims
            workingStart = context.workingStart
        }
    }

    /// What a trimmed conversation keeps beside its history: how the working transcript is made from it. Saves keep
    /// it in the conversation's annotations (`context.*`), so a restored NPC reads what the live one read.
    struct WorkingContext: Equatable {
        var trims: Int
        var workingStart: Int
        var summary: String
        var notes: String?

        /// The working context a conversation's annotations hold, or `nil` when it was never trimmed or the values do
        /// not fit its history (a save changed by hand): the working transcript is then the whole history, and the
        /// next turn that does not fit trims it again.
        init?(annotations: [String: String], historyCount: Int) {
            guard let trims = annotations[.contextTrims].flatMap({ Int($0) }), trims > 0,
                let start = annotations[.contextWorkingStart].flatMap({ Int($0) }), (1...historyCount).contains(start)
            else { return nil }
            self.trims = trims
            workingStart = start
            summary = annotations[.contextSummary] ?? ""
            notes = annotations[.contextNotes]
        }

        /// The annotations that hold it.
        static func annotations(of conversation: NPCConversation) -> [String: String] {
            guard conversation.trims > 0 else { return [:] }
            var annotations: [String: String] = [:]
            annotations[.contextTrims] = String(conversation.trims)
            annotations[.contextWorkingStart] = String(conversation.workingStart)
            annotations[.contextSummary] = conversation.summary
            annotations[.contextNotes] = conversation.notes
            return annotations
        }
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
    package func annotated(npcName: String) -> AnnotatedTranscript {
        let annotations = [String: String](annotations: [
            .npc: npc.rawValue, .npcName: npcName, .modelID: session.model.id, .modelVersion: session.model.version,
            .parleyVersion: ParleyVersion.current,
        ])
        return AnnotatedTranscript(
            transcript: history,
            annotations: annotations.merging(WorkingContext.annotations(of: self)) { first, _ in first },
            turnAnnotations: turnAnnotations)
    }
}

extension GameState {
    /// The game context of a turn: the player, what they carry, where they are.
    func annotations(talkingTo npc: NPCID?) -> [String: String] {
        var context: [String: String] = [:]
        context[.player] = player.name
        context[.gold] = String(player.gold)
        context[.location] = player.location.rawValue
        context[.inventory] = player.inventory.sorted { $0.item.rawValue < $1.item.rawValue }
            .map { "\($0.quantity) × \($0.item.rawValue)" }.joined(separator: ", ")
        context[.world] = world.id
        if let npc { context[.npc] = npc.rawValue }
        if !story.isEmpty { context[.story] = story.description }
        return context
    }
}
