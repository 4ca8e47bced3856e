import Foundation
import GameWorld
import LanguageModels

// Turns of NPCs a language-model server plays (`VoicedModel`): grounded voicing, where the planner decides the turn
// and the server only says the planned line, checked before the player sees it; and the first-words deadline of
// free mode, where the planner answers a turn whose first words the server does not send in time.

extension Game {
    /// Whether NPCs played by a server (`VoicedModel`) speak through it; `true` unless switched off with
    /// `setVoiceEnabled(_:)`.
    public var isVoiceEnabled: Bool { voiceEnabled }

    /// Switches the server of `VoicedModel` NPCs on or off. Off, the planner answers every turn alone (recorded as
    /// fallen back, reason `planned`), as the evaluation does for a case's setup turns so that every model answers
    /// the same situation.
    ///
    /// - Parameter enabled: Whether the server speaks.
    public func setVoiceEnabled(_ enabled: Bool) {
        voiceEnabled = enabled
    }

    /// The server's words did not come within the first-words deadline (free mode).
    struct FirstWordsMissed: Error {}

    /// A turn of free mode: the server answers it, unless the voice is switched off. Its reply is held until it is
    /// whole and shown only if the claim check finds nothing false in it; when its first words miss the deadline,
    /// the server fails, or the reply states something false, the planner answers instead (a context that
    /// overflows is left to the caller, which trims it). A reply taken back leaves the transcript as it was before
    /// the turn; the tools the server called have done what they did, and the planner answers from the game as it
    /// now is.
    ///
    /// - Returns: The response, and how it came to be.
    func freeTurn(
        _ prompt: Prompt, model: VoicedModel, session: LanguageModelSession, conversation: NPCConversation,
        context: GenerationContext, name: String, startedAt started: ContinuousClock.Instant,
        until deadline: ContinuousClock.Instant, limit: Duration, output: (GameOutput) -> Void
    ) async throws -> (LanguageModelSession.Response<String>, TurnVoicing) {
        var voicing = TurnVoicing(mode: .free, outcome: .fellBack, planner: model.plannerName)
        if voiceEnabled {
            voicing.attempts = 1
            let before = session.transcript
            do {
                let response = try await streamTurn(
                    prompt, context: context, session: session, name: name, until: deadline, limit: limit,
                    firstWordsBy: min(started + model.firstWordsDeadline, deadline), showsSpeech: false,
                    output: output)
                voicing.completionTokens = response.generationUsage?.completionTokens
                let claims = falseClaims(in: Array(response.transcriptEntries), npc: conversation.npc, saying: nil)
                if claims.isEmpty {
                    voicing.outcome = .voiced
                    output(.speechBegan(npc: name))
                    output(.speech(response.content))
                    output(.speechEnded)
                    return (response, voicing)
                }
                // Never shown: the turn is taken back, and the planner answers.
                session.transcript = before
                voicing.reason = .check
                voicing.problems = [
                    "\"\(response.content)\": " + claims.map { "false claim: \($0)" }.joined(separator: "; ")
                ]
            } catch is FirstWordsMissed {
                voicing.reason = .deadline
            } catch let error where Self.plannerMayAnswer(after: error) {
                voicing.reason = .error
                voicing.problems = [Self.withoutSecrets("\(error)", model: model)]
            }
        } else {
            voicing.reason = .planned
        }
        let response = try await plannerTurn(
            prompt, planner: model.planner, session: session, context: context, name: name, until: deadline,
            limit: limit, output: output)
        return (response, voicing)
    }

    /// Whether the planner answers a free turn that failed with `error`: not when the context overflowed (the turn
    /// is trimmed and asked again), the turn's time is up, or the turn was cancelled.
    static func plannerMayAnswer(after error: any Error) -> Bool {
        switch error {
        case LanguageModelError.contextSizeExceeded, is TurnTimeout, is CancellationError: false
        default: true
        }
    }

    /// Answers a turn with the planner alone, on a session with `session`'s transcript and tools, showing its speech;
    /// its entries are copied into `session`.
    func plannerTurn(
        _ prompt: Prompt, planner: any LanguageModel, session: LanguageModelSession, context: GenerationContext,
        name: String, until deadline: ContinuousClock.Instant, limit: Duration, output: (GameOutput) -> Void
    ) async throws -> LanguageModelSession.Response<String> {
        let planning = LanguageModelSession(model: planner, tools: session.tools, transcript: session.transcript)
        let response = try await streamTurn(
            prompt, context: context, session: planning, name: name, until: deadline, limit: limit, output: output)
        session.transcript.append(contentsOf: response.transcriptEntries)
        return response
    }

    /// Has the voice say a planned line (grounded voicing, see `GroundedVoicer`), and puts the line said in the
    /// turn's response entry, in the returned entries and in the NPC's session. Nothing is shown before a line has
    /// passed the checks.
    ///
    /// - Returns: The entries with the line said, and how it came to be.
    func voice(
        _ entries: [Transcript.Entry], prompt: Prompt, model: VoicedModel, conversation: NPCConversation,
        until deadline: ContinuousClock.Instant, limit: Duration
    ) async -> (entries: [Transcript.Entry], voicing: TurnVoicing) {
        let npcID = conversation.npc
        guard let npc = state.world.npcs[npcID],
            let index = entries.lastIndex(where: { if case .response = $0 { true } else { false } }),
            case .response(var response) = entries[index]
        else {
            return (
                entries, TurnVoicing(mode: .grounded, outcome: .fellBack, reason: .check, planner: model.plannerName)
            )
        }
        let checker = claimChecker ?? ClaimChecker(world: state.world)
        claimChecker = checker
        let voicer = GroundedVoicer(
            model: model, npc: npc, state: state, checker: checker, pendingOffer: pendingOffers[npcID])
        let (line, voicing) = await voicer.voice(
            planned: Self.text(of: response.segments), playerLine: Self.text(of: prompt.segments),
            recent: Self.recentLines(
                in: conversation.session.transcript, before: entries.first?.id, npc: npc, playerName: state.player.name),
            turnEntries: entries, until: deadline, limit: limit)
        guard let line else { return (entries, voicing) }
        response.segments = [.text(.init(content: line))]
        var voiced = entries
        voiced[index] = .response(response)
        var transcript = conversation.session.transcript
        if let position = transcript.lastIndex(where: { $0.id == response.id }) {
            transcript[position] = .response(response)
            conversation.session.transcript = transcript
        }
        return (voiced, voicing)
    }

    /// The last lines of a conversation before a turn, oldest first, for the voice: at most four, the player's and
    /// the NPC's.
    ///
    /// - Parameters:
    ///   - transcript: The conversation.
    ///   - turnID: The id of the turn's first entry; the lines before it count (all, when `nil` or not found).
    ///   - npc: The NPC.
    ///   - playerName: The player's name.
    static func recentLines(
        in transcript: some Collection<Transcript.Entry>, before turnID: String?, npc: NPC, playerName: String
    ) -> [(speaker: String, line: String)] {
        let entries = Array(transcript)
        let end = turnID.flatMap { id in entries.lastIndex { $0.id == id } } ?? entries.endIndex
        var lines: [(speaker: String, line: String)] = []
        for entry in entries[..<end].reversed() {
            switch entry {
            case .prompt(let prompt):
                let line = text(of: prompt.segments)
                if !line.isEmpty { lines.append((playerName, line)) }
            case .response(let response):
                let line = text(of: response.segments)
                if !line.isEmpty { lines.append((npc.name, line)) }
            default: break
            }
            if lines.count == 4 { break }
        }
        return lines.reversed()
    }

    /// The text segments of an entry, joined by spaces.
    static func text(of segments: [Transcript.Segment]) -> String {
        segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }.joined(separator: " ")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Has a server say a line the planner planned, checked before anyone hears it (grounded voicing): used by the
/// game's turns and by `Replay`.
///
/// The voice is asked once (greedy), and once more (sampled) when its line fails the checks (`VoicedLineCheck`,
/// then the game's claim check on the game after the turn) and time remains; when both fail, the server fails, or
/// the deadline passes, there is no line, and the planned one is said.
struct GroundedVoicer {
    /// The NPC's model.
    let model: VoicedModel
    /// The NPC.
    let npc: NPC
    /// The game after the planner's turn (its tools have run).
    let state: GameState
    /// The claim check of the world.
    let checker: ClaimChecker
    /// The offer pending after the planner's turn.
    let pendingOffer: PendingOffer?

    /// Voices a planned line.
    ///
    /// - Parameters:
    ///   - planned: The planner's line.
    ///   - playerLine: What the player said this turn.
    ///   - recent: The conversation's last lines before the turn.
    ///   - turnEntries: The turn's entries (its tool outputs are facts the line may state).
    ///   - deadline: When the line must be ready.
    ///   - limit: The turn's time limit, for errors.
    /// - Returns: The line to say, or `nil` for the planned one; and how it came to be.
    func voice(
        planned: String, playerLine: String, recent: [(speaker: String, line: String)],
        turnEntries: [Transcript.Entry], until deadline: ContinuousClock.Instant, limit: Duration
    ) async -> (line: String?, voicing: TurnVoicing) {
        var voicing = TurnVoicing(mode: .grounded, outcome: .fellBack, planned: planned, planner: model.plannerName)
        guard !planned.isEmpty else {
            voicing.reason = .check
            return (nil, voicing)
        }
        // A planned line longer than the budget (a list of wares) may keep its length.
        let budget = max(model.sentenceBudget, ClaimText(planned).sentences.count)
        let lineCheck = VoicedLineCheck(
            vocabulary: checker.vocabulary, sentenceBudget: budget, numbers: state.world.lexicon(for: npc.id).numbers)
        let prompt = VoicingPrompt(
            npc: npc, world: state.world, planned: planned, facts: lineCheck.facts(in: planned), playerLine: playerLine,
            recent: recent.map { ($0.speaker == state.player.name ? "Player" : $0.speaker, $0.line) },
            sentenceBudget: model.sentenceBudget)
        let tokens = budget * VoicedModel.tokensPerSentence
        let attempts: [GenerationOptions] = [
            GenerationOptions(sampling: .greedy, maximumResponseTokens: tokens),
            GenerationOptions(
                sampling: .random(probabilityThreshold: 0.9, seed: 7), temperature: 0.8, maximumResponseTokens: tokens),
        ]
        for options in attempts {
            guard ContinuousClock.now < deadline else {
                voicing.reason = .deadline
                break
            }
            voicing.attempts += 1
            let session = LanguageModelSession(model: model.voice, tools: [], transcript: prompt.transcript)
            let text = prompt.prompt
            let said: LanguageModelSession.Response<String>
            do {
                // Streamed, though nothing is shown before the check: a server stops generating as soon as a
                // stream is dropped at the deadline, where a whole answer would keep it busy to its end.
                said = try await Game.runUntil(deadline, limit: limit) {
                    try await session.streamResponse(to: Prompt(text), options: options).collect()
                }
            } catch is TurnTimeout {
                voicing.reason = .deadline
                break
            } catch {
                voicing.problems.append(Game.withoutSecrets("\(error)", model: model))
                voicing.reason = .error
                break
            }
            if let count = said.generationUsage?.completionTokens {
                voicing.completionTokens = (voicing.completionTokens ?? 0) + count
            }
            let result = lineCheck.check(
                said.content, planned: planned, playerLine: playerLine, speaker: npc.name, sources: prompt.sources)
            var problems = result.problems
            if problems.isEmpty {
                problems = checker.falseClaims(
                    in: result.line, npc: npc.id, state: state, turnEntries: turnEntries, pendingOffer: pendingOffer
                ).map { "false claim: \($0)" }
            }
            if problems.isEmpty {
                voicing.outcome = voicing.attempts == 1 ? .voiced : .regenerated
                voicing.reason = nil
                return (result.line, voicing)
            }
            voicing.problems.append("\"\(result.line)\": " + problems.joined(separator: "; "))
            voicing.reason = .check
        }
        return (nil, voicing)
    }
}
