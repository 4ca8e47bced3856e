import Foundation
import GameWorld
import LanguageModels
import ParleyEngine

/// Runs recorded turns again against a model, from the same game state and the same earlier conversation at each
/// turn, and reports where the text and the tool calls differ.
///
/// This is how a developer sees what a model update does to their NPCs: record a session with one model, replay
/// it with another (or the same with changed content), and read the turns that changed.
///
/// With a server in grounded mode (`VoicedModel`), the planner answers each turn and the server voices its line as
/// in the game, with the same checks and deadline; each turn says how its recorded and its replayed line came to be
/// (`recordedVoicing`, `replayedVoicing`). In free mode the server answers each turn itself, with no deadline but
/// the turn's time limit.
public enum Replay {
    /// The outcome of one replayed turn.
    public enum Status: String, Sendable, Equatable {
        /// The same text and the same tool calls.
        case same
        /// Different text or tool calls.
        case changed
        /// The replayed turn failed (or the recorded one had).
        case failed
    }

    /// One replayed turn beside the recorded one.
    public struct Turn: Sendable, Equatable {
        /// The turn's position among the recordings, from 1.
        public var number: Int
        /// The NPC.
        public var npc: NPCID
        /// What the player said or did.
        public var input: String
        /// The recorded answer and tool calls.
        public var recordedText: String
        /// The recorded tool calls.
        public var recordedCalls: [String]
        /// The replayed answer.
        public var replayedText: String
        /// The replayed tool calls.
        public var replayedCalls: [String]
        /// Same, changed or failed.
        public var status: Status
        /// How the recorded line came to be, when a server played the NPC (`TurnVoicing.summary`).
        public var recordedVoicing: String?
        /// How the replayed line came to be, when a server plays the NPC.
        public var replayedVoicing: String?
    }

    /// The whole replay.
    public struct Report: Sendable, Equatable {
        /// Every turn replayed, in order.
        public var turns: [Turn]
        /// Whether the replay stopped at its deadline (``Deadline``) before every recorded turn was replayed.
        public var stoppedEarly = false
        /// How many recorded turns were not replayed because the replay stopped early; 0 when it did not.
        public var notReplayed = 0
        /// How many turns came out the same.
        public var same: Int { turns.filter { $0.status == .same }.count }
        /// How many changed.
        public var changed: Int { turns.filter { $0.status == .changed }.count }
        /// How many failed.
        public var failed: Int { turns.filter { $0.status == .failed }.count }
        /// `12 turns: 10 same, 2 changed, 0 failed`; for a replay that stopped early, `12 of 40 turns (stopped at the
        /// time limit): 10 same, 2 changed, 0 failed`.
        public var summary: String {
            let counts = "\(same) same, \(changed) changed, \(failed) failed"
            guard stoppedEarly else { return "\(turns.count) turns: \(counts)" }
            return "\(turns.count) of \(turns.count + notReplayed) turns (stopped at the time limit): \(counts)"
        }
    }

    /// Replays recordings.
    ///
    /// - Parameters:
    ///   - recordings: The turns, in the order they were taken.
    ///   - pack: The content pack (static world); each turn's state is its recorded state laid over it.
    ///   - models: Makes each NPC's model for the replay.
    ///   - options: How replies are generated, as in the game (a `maximumResponseTokens` bounds slow models).
    ///   - deadline: When to stop early, asked before each turn; never by default.
    ///   - progress: Called with each turn as it is replayed.
    /// - Returns: The report: the turns replayed, and whether the deadline stopped it early.
    public static func run(
        _ recordings: [TurnRecording], pack: ContentPack, models: Game.ModelProvider,
        options: GenerationOptions = GenerationOptions(), until deadline: Deadline = .never,
        progress: (Turn) -> Void = { _ in }
    ) async -> Report {
        let replayable = recordings.filter(isReplayed).count
        var stoppedEarly = false
        var turns: [Turn] = []
        var conversations: [NPCID: [Transcript.Entry]] = [:]
        // Each NPC's working transcript after its instructions, as the game had it: the whole conversation until a
        // recorded trim keeps only its last entries (`TurnRecording.ContextTrim.kept`).
        var workingEntries: [NPCID: [Transcript.Entry]] = [:]
        var modelsByNPC: [NPCID: any LanguageModel] = [:]
        var claimChecker: ClaimChecker?
        for recording in recordings {
            let earlier = conversations[recording.npc] ?? []
            if let kept = recording.trim?.kept {
                workingEntries[recording.npc] = Array((workingEntries[recording.npc] ?? []).suffix(max(kept, 0)))
            }
            let working = workingEntries[recording.npc] ?? []
            defer {
                conversations[recording.npc, default: []].append(contentsOf: recording.entries)
                workingEntries[recording.npc, default: []].append(contentsOf: recording.entries)
            }
            // Authored beats are content, not model output, and an event witnessed without an answer asked no model:
            // they stay in the conversation and are not replayed.
            guard isReplayed(recording) else { continue }
            if deadline.hasPassed() {
                stoppedEarly = true
                break
            }
            var turn = Turn(
                number: turns.count + 1, npc: recording.npc, input: text(of: recording.input),
                recordedText: recording.responseText ?? recording.failure.map { "(failed: \($0))" } ?? "",
                recordedCalls: recording.toolCalls, replayedText: "", replayedCalls: [], status: .failed,
                recordedVoicing: recording.voicing?.summary)
            let state = recording.stateBefore.applied(to: pack.initialState)
            do {
                guard let npc = state.world.npcs[recording.npc] else {
                    throw ReplayError(description: "the content pack has no NPC \(recording.npc)")
                }
                let model: any LanguageModel
                if let known = modelsByNPC[npc.id] {
                    model = known
                } else {
                    model = try await models(npc, state.world)
                    modelsByNPC[npc.id] = model
                }
                // Conditions see the recorded state and the conversation as it was.
                var context = GenerationContext()
                if model.capabilities.contains(.contextValues) {
                    context.conditions = ConditionContext(
                        state: state, npc: npc.id,
                        conversation: Game.conversationFacts(
                            history: Transcript(entries: earlier), saying: Prompt(segments: recording.input.segments),
                            npc: npc.id, world: state.world))
                }
                let shared = SharedGameState(state)
                // A spoken line heard below its acting bar is replayed under the same bar: its tools that act refuse.
                if let heard = recording.heard, !heard.mayAct {
                    shared.update { $0.unclearSpeech[npc.id] = heard }
                }
                let tools = NPCToolbox(npc: npc.id, state: shared, onRefusal: { _ in }).tools()
                // The working transcript the turn was taken with: its instructions (with what a trim kept of the
                // trimmed turns) and the entries the game's trims left, so a replay meets the trims it recorded.
                let transcript = Transcript(entries: (recording.instructions.map { [$0] } ?? []) + working)
                let session = LanguageModelSession(model: model, tools: tools, transcript: transcript)
                guard case .prompt(let prompt) = recording.input else {
                    throw ReplayError(description: "the recorded input is not a prompt")
                }
                let response = try await Game.withinTurnTimeout(of: model) { [prompt, context] in
                    try await respond(
                        session, to: Prompt(segments: prompt.segments), context: context, npc: npc, options: options)
                }
                let replayed = TurnRecording(
                    npc: npc.id, instructions: nil, input: recording.input, context: [:],
                    stateBefore: recording.stateBefore,
                    entries: Array(response.transcriptEntries), modelID: model.id, modelVersion: model.version,
                    totalMilliseconds: 0)
                turn.replayedText = replayed.responseText ?? ""
                turn.replayedCalls = replayed.toolCalls
                if let voiced = model.voicing, voiced.mode == .grounded {
                    // The planner's line, said by the voice as in the game.
                    let checker = claimChecker ?? ClaimChecker(world: state.world)
                    claimChecker = checker
                    let voicer = GroundedVoicer(
                        model: voiced, npc: npc, state: shared.game, checker: checker,
                        pendingOffer: shared.read(\.pendingOffers)[npc.id])
                    let (line, voicing) = await voicer.voice(
                        planned: turn.replayedText, playerLine: Game.text(of: prompt.segments),
                        recent: Game.recentLines(
                            in: working, before: nil, npc: npc, playerName: state.player.name),
                        turnEntries: replayed.entries, firstWordsBy: .now + voiced.firstWordsDeadline,
                        until: .now + voiced.firstWordsDeadline,
                        limit: Game.turnTimeout)
                    if let line { turn.replayedText = line }
                    turn.replayedVoicing = voicing.summary
                }
                turn.status =
                    recording.failure == nil && turn.replayedText == turn.recordedText
                        && turn.replayedCalls == turn.recordedCalls
                    ? .same : (recording.failure == nil ? .changed : .failed)
            } catch {
                turn.replayedText = "(failed: \(error))"
                turn.status = .failed
            }
            turns.append(turn)
            progress(turn)
        }
        return Report(
            turns: turns, stoppedEarly: stoppedEarly, notReplayed: stoppedEarly ? replayable - turns.count : 0)
    }

    /// Whether a recording is a turn a replay runs again: not an authored beat, not an event witnessed without an
    /// answer.
    static func isReplayed(_ recording: TurnRecording) -> Bool {
        recording.modelID != TurnRecording.beatModelID && recording.modelID != TurnRecording.witnessedModelID
    }

    /// One turn, recovering once from a full context window the way the game does.
    static func respond(
        _ session: LanguageModelSession, to prompt: Prompt, context: GenerationContext = GenerationContext(), npc: NPC,
        options: GenerationOptions = GenerationOptions()
    ) async throws
        -> LanguageModelSession.Response<String>
    {
        do {
            // Apple 27's types whatever the trait, as the game's turns see them.
            return try await LanguageModelSession.withApple27Errors {
                try await session.respond(to: prompt, context: context, options: options)
            }
        } catch LanguageModelError.contextSizeExceeded(let overflow) {
            guard let instructions = session.transcript.instructions else {
                throw LanguageModelError.contextSizeExceeded(overflow)
            }
            let recovery = ContextRecovery(policy: npc.contextPolicy, model: session.model)
            let trimmed = try await recovery.trim(
                session.transcript,
                instructions: Transcript.Instructions(
                    segments: instructions.segments,
                    toolDefinitions: session.tools.map { Transcript.ToolDefinition(tool: $0) }),
                tools: session.tools.map { Transcript.ToolDefinition(tool: $0) }, summary: "", facts: [],
                contextSize: overflow.contextSize)
            session.transcript = trimmed.transcript
            return try await LanguageModelSession.withApple27Errors {
                try await session.respond(to: prompt, context: context, options: options)
            }
        }
    }

    static func text(of entry: Transcript.Entry) -> String {
        Game.text(of: entry.segments)
    }

    /// A turn that cannot be replayed.
    struct ReplayError: Error, CustomStringConvertible {
        var description: String
    }
}
