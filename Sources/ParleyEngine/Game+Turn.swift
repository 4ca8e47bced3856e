import Foundation
import GameWorld
import LanguageModels
import NPCContract
import ParleyBasics

// One NPC turn, in two steps: `takeTurn` runs it (the model, its tools, retries and trims, the speech shown as it
// streams) and returns a `TurnResult` without changing the game; `apply` makes the result part of the game.

extension Game {
    /// One turn: the prompt goes to the NPC's session, the answer streams out, and the result is applied. On failure
    /// the session rolls the turn back and the player hears why.
    func speak(_ prompt: Prompt, to npcID: NPCID, output: (GameOutput) -> Void, saying beatLine: String? = nil) async {
        let result: TurnResult
        do {
            // The copy of the conversation ends here, before `apply` changes the one the game keeps: alive, it would
            // make that change copy the conversation's turn annotations, a cost that grows with every turn.
            let conversation = try await self.conversation(with: npcID)
            result = await takeTurn(prompt, in: conversation, output: output, saying: beatLine)
        } catch {
            return output(.problem("\(state.world.name(of: npcID)) cannot speak: \(error)"))
        }
        await apply(result, output: output)
    }

    /// Runs a turn and returns what it produced. The game changes only through the NPC's tools (which go through
    /// the world's rules) and the trims of the working transcript; the conversation's history, the recording, the
    /// feedback and the rules' effects are left to `apply(_:output:)`.
    ///
    /// - Parameter beatLine: An authored line said first, verbatim; it joins the model's response entry.
    func takeTurn(
        _ prompt: Prompt, in conversation: NPCConversation, output: (GameOutput) -> Void, saying beatLine: String?
    ) async -> TurnResult {
        let npcID = conversation.npc
        let name = state.world.name(of: npcID)
        let context = generationContext(for: npcID, saying: prompt, model: conversation.session.model)
        refreshKnowledge(of: npcID)
        let annotations = state.annotations(talkingTo: npcID)
        // A spoken line below its acting bar: the tools that act refuse, and the rules' effects do not run.
        let heldBack = shared.read { $0.unclearSpeech[npcID] != nil }
        let refusalsBefore = shared.read(\.refusedOffers.count)
        let actionRefusalsBefore = shared.read(\.refusedActions.count)
        let eventsBefore = shared.read(\.events.count)
        let lastWords = conversation.session.transcript.last { if case .response = $0 { true } else { false } }
        let world = state.world
        shared.update { $0.quotes[npcID] = TradeGuard.quotes(in: lastWords?.description ?? "", world: world) }
        output(.thinking(npc: name))
        let clock = ContinuousClock()
        let started = clock.now
        let stateBefore = DynamicState(state)
        let model = conversation.session.model

        var entries: [Transcript.Entry] = []
        var usage: GenerationUsage?
        var firstWords: Duration?
        var voicing: TurnVoicing?
        var failure: (recorded: String, shown: String)?
        do {
            let answer = try await answer(
                prompt, in: conversation, context: context, startedAt: started, output: output, saying: beatLine)
            (entries, usage, firstWords, voicing) = (answer.entries, answer.usage, answer.firstWords, answer.voicing)
        } catch {
            failure = (
                Self.withoutSecrets("\(error)", model: model),
                Self.withoutSecrets(Self.explain(error, npc: name), model: model)
            )
        }
        let timing = TurnResult.Timing(firstWords: firstWords, total: clock.now - started)
        var recording = TurnRecording(
            npc: npcID, instructions: conversation.session.transcript.first,
            input: entries.first ?? .prompt(.init(segments: prompt.segments)), context: annotations,
            stateBefore: stateBefore, entries: entries, failure: failure?.recorded, modelID: model.id,
            modelVersion: model.version, usage: usage, firstWordsMilliseconds: timing.firstWords?.milliseconds,
            totalMilliseconds: timing.total.milliseconds)
        recording.voicing = voicing
        recording.contextSize = try? await model.contextSize
        if let trimmed = conversations[npcID], trimmed.trims > conversation.trims {
            // The working transcript is the instructions and the history from `workingStart` on: a replay keeps as
            // many of the earlier entries.
            recording.trim = TurnRecording.ContextTrim(
                count: trimmed.trims - conversation.trims, notes: trimmed.notes,
                kept: max(trimmed.history.count - trimmed.workingStart, 0))
        }
        let refusals = Array(shared.read(\.refusedOffers).dropFirst(refusalsBefore))
        // What the tools did to the game, even in a turn that failed afterwards: a gift made is a gift made.
        let events = Array(shared.read(\.events).dropFirst(eventsBefore))
        var turnAnnotations = annotations
        if let voicing { turnAnnotations[.voicing] = voicing.summary }
        var result = TurnResult(
            npc: npcID, entries: entries, annotations: turnAnnotations,
            effects: heldBack ? [] : ruleEffects(of: entries, npc: npcID), events: events, refusals: refusals,
            // A refusal for a line heard too unsurely is no mistake of the model's: no report.
            feedback: refusals.filter { !$0.unclearSpeech }.compactMap { refusalReport($0, npc: npcID) }
                + shared.read(\.refusedActions).dropFirst(actionRefusalsBefore).filter { !$0.unclearSpeech }
                .compactMap { actionRefusalReport($0, npc: npcID) },
            recording: recording, failure: failure?.shown, timing: timing)
        result.falseClaims = falseClaims(in: entries, npc: npcID, saying: beatLine)
        result.recording.falseClaims = result.falseClaims.map(\.description)
        if result.isSilent {
            // Never silent: the player is told, and the turn reports its model's silence.
            output(.narration("\(name) says nothing."))
            if let report = emptyReplyReport(npc: npcID, after: prompt) { result.feedback.append(report) }
        }
        return result
    }

    /// The claim check of a turn's answer against the game after it (see `ClaimChecker`): what the model said, not
    /// an authored beat line said before it.
    func falseClaims(in entries: [Transcript.Entry], npc npcID: NPCID, saying beatLine: String?) -> [FalseClaim] {
        guard case .response(let response)? = entries.last(where: { if case .response = $0 { true } else { false } })
        else { return [] }
        var segments = response.segments
        if beatLine != nil, !segments.isEmpty { segments.removeFirst() }
        let line = Self.text(of: segments)
        guard !line.isEmpty else { return [] }
        let checker = claimChecker ?? ClaimChecker(world: state.world)
        claimChecker = checker
        return checker.falseClaims(
            in: line, npc: npcID, state: state, turnEntries: entries, pendingOffer: pendingOffers[npcID])
    }

    /// Makes a turn's result part of the game: its entries join the conversation's history with the turn's
    /// annotations, its recording and feedback reports are kept for the next save, a failure is shown, the gifts the
    /// NPC accepted fire their beats (see `fireGiftBeats(of:output:)`), and the effects of the rules that answered run
    /// through the world's rules.
    func apply(_ result: TurnResult, output: (GameOutput) -> Void) async {
        let npcID = result.npc
        if let failure = result.failure { output(.problem(failure)) }
        if let first = result.entries.first {
            conversations[npcID]?.history.append(contentsOf: result.entries)
            conversations[npcID]?.turnAnnotations[first.id] = result.annotations
            saveMarks.changedConversations.insert(npcID)
        }
        record(result.recording)
        for report in result.feedback { record(report) }
        lastTurn = result
        await fireGiftBeats(of: result, output: output)
        await run(result.effects, for: npcID, output: output)
    }

    /// Fires the `itemGiven` beat of each gift the NPC accepted during a turn (`acceptGift`, when the player offered
    /// it in words), as the `give` command fires it: once per item given, with its effects, after the turn (so its
    /// condition sees everything the turn did). Its lines are not said: the NPC answered the gift in the turn itself.
    /// A gift of the item the turn answers as a witnessed event (the `give` command, which fired its own beat) does
    /// not fire again; a refused gift applied no event, so it fires nothing.
    func fireGiftBeats(of result: TurnResult, output: (GameOutput) -> Void) async {
        var given: Set<ItemID> = []
        if case .prompt(let prompt) = result.recording.input, case .gave(let item, _)? = prompt.witnessedEvent {
            given.insert(item)
        }
        for event in result.events {
            guard case .gave(let item, _, let npcID) = event, npcID == result.npc, given.insert(item).inserted else {
                continue
            }
            await fireBeat(.itemGiven(item), npc: npcID, witnessed: nil, output: output, answered: true)
        }
    }

    /// The model's answer to a turn.
    struct Answer {
        /// The turn's entries, as appended to the NPC's session.
        var entries: [Transcript.Entry]
        /// Token counts, if the backend reported them.
        var usage: GenerationUsage?
        /// Time from the turn's start to the first words shown.
        var firstWords: Duration?
        /// How the line came to be, for an NPC a server plays.
        var voicing: TurnVoicing?
    }

    /// Asks the NPC's model for the turn until it answers or cannot: a context that overflows is trimmed, harder each
    /// time, and as a last resort the turn is asked without tools. The turn's time limit covers all of it.
    ///
    /// - Throws: The error that ended the turn; the session has rolled the turn back.
    func answer(
        _ prompt: Prompt, in conversation: NPCConversation, context: GenerationContext,
        startedAt started: ContinuousClock.Instant, output: (GameOutput) -> Void, saying beatLine: String?
    ) async throws -> Answer {
        let npcID = conversation.npc
        let name = state.world.name(of: npcID)
        let clock = ContinuousClock()
        let limit = Self.turnTimeout
        let deadline = Self.deadline(of: conversation.session.model, startedAt: started, limit: limit)
        var attempt = 0
        // Set when even the hardest trim left no room: the last attempt answers without tools (see below).
        var withoutTools = false
        while true {
            attempt += 1
            do {
                var firstWords: Duration?
                if let beatLine, attempt == 1 {
                    // An authored line comes first, verbatim (shown once, even when the turn is retried); it joins the
                    // model's response entry below.
                    output(.speechBegan(npc: name))
                    output(.speech(beatLine))
                    output(.speechEnded)
                }
                let session = withoutTools ? Self.sessionWithoutTools(like: conversation.session) : conversation.session
                func show(_ piece: GameOutput) {
                    if firstWords == nil, case .speech = piece { firstWords = clock.now - started }
                    output(piece)
                }
                let voiced = conversation.session.model.voicing
                var voicing: TurnVoicing?
                var entries: [Transcript.Entry]
                let usage: GenerationUsage?
                if let voiced, voiced.mode == .free {
                    (entries, usage, voicing) = try await freeTurn(
                        prompt, model: voiced, session: session, conversation: conversation, context: context,
                        name: name, startedAt: started, until: deadline, limit: limit, output: show)
                } else if let voiced, !voiceEnabled {
                    let response = try await plannerTurn(
                        prompt, planner: voiced.planner, session: session, context: context, name: name,
                        until: deadline, limit: limit, output: show)
                    (entries, usage) = (Array(response.transcriptEntries), response.generationUsage)
                    voicing = TurnVoicing(
                        mode: voiced.mode, outcome: .fellBack, reason: .planned,
                        planner: voiced.plannerName)
                } else {
                    // Grounded voicing shows nothing of the planned line: the voiced line, once checked, is said.
                    let response = try await streamTurn(
                        prompt, context: context, session: session, name: name, until: deadline, limit: limit,
                        showsSpeech: voiced == nil, output: show)
                    (entries, usage) = (Array(response.transcriptEntries), response.generationUsage)
                }
                if session !== conversation.session { conversation.session.transcript.append(contentsOf: entries) }
                if let voiced, voiced.mode == .grounded, voiceEnabled {
                    let voicedDeadline = min(started + voiced.firstWordsDeadline, deadline)
                    (entries, voicing) = await voice(
                        entries, prompt: prompt, model: voiced, conversation: conversation,
                        firstWordsBy: voicedDeadline, until: deadline, limit: limit, output: show)
                }
                if let beatLine { entries = Self.prepend(beatLine, to: entries, in: conversation.session) }
                // A turn that showed no words (an empty answer) had its first words, such as they were, at its end.
                return Answer(
                    entries: entries, usage: usage, firstWords: firstWords ?? clock.now - started,
                    voicing: voicing)
            } catch LanguageModelError.contextSizeExceeded(let overflow)
                where attempt <= ContextRecovery.targetShares.count
            {
                // The conversation outgrew the window: trim it in one block, keeping what matters, and try again;
                // harder each time the turn still does not fit (long tool outputs can need more room than one trim).
                try await Self.runUntil(deadline, limit: limit) { [attempt] in
                    try await self.recoverContext(of: npcID, contextSize: overflow.contextSize, attempt: attempt)
                }
            } catch LanguageModelError.contextSizeExceeded where !withoutTools {
                // Even with no earlier turn kept, this turn does not fit: the NPC's tool definitions take much of a
                // small window. One last attempt without them: an answer in character that looks nothing up.
                withoutTools = true
            }
        }
    }
    /// A session on the same model and transcript with no tools, not even listed in the instructions, for a turn
    /// that fits the window only without them. Its turn's entries are copied into the NPC's own session.
    static func sessionWithoutTools(like session: LanguageModelSession) -> LanguageModelSession {
        var transcript = session.transcript
        if case .instructions(var instructions)? = transcript.first {
            instructions.toolDefinitions = []
            transcript[transcript.startIndex] = .instructions(instructions)
        }
        return LanguageModelSession(model: session.model, tools: [], transcript: transcript)
    }

    /// Puts a beat's line at the start of the turn's response entry, in the session and in the returned entries.
    static func prepend(
        _ line: String, to entries: [Transcript.Entry], in session: LanguageModelSession
    ) -> [Transcript.Entry] {
        editingResponse(in: entries, session: session) { $0.segments.insert(.text(.init(content: line)), at: 0) }
    }

    /// Changes the turn's response entry (the last one in `entries`) with `edit`, in the returned entries and in
    /// `session`'s transcript (the entry with the same id); `entries` as they are when they hold no response.
    static func editingResponse(
        in entries: [Transcript.Entry], session: LanguageModelSession,
        _ edit: (inout Transcript.Response) -> Void
    ) -> [Transcript.Entry] {
        var entries = entries
        guard let index = entries.lastIndex(where: { if case .response = $0 { true } else { false } }),
            case .response(var response) = entries[index]
        else { return entries }
        edit(&response)
        entries[index] = .response(response)
        var transcript = session.transcript
        if let position = transcript.lastIndex(where: { $0.id == response.id }) {
            transcript[position] = .response(response)
            session.transcript = transcript
        }
        return entries
    }

    /// Streams one attempt at a turn to the output, until the turn's deadline; the speech is closed even when the
    /// turn fails. The model server's notices (retries, rate limits) are shown as they come.
    ///
    /// - Parameters:
    ///   - firstWordsDeadline: When the first words must have come (free voicing), if they must.
    ///   - showsSpeech: Whether the answer is shown; `false` for a planned line that is voiced before it is said.
    func streamTurn(
        _ prompt: Prompt, context: GenerationContext, session: LanguageModelSession, name: String,
        until deadline: ContinuousClock.Instant, limit: Duration,
        firstWordsBy firstWordsDeadline: ContinuousClock.Instant? = nil,
        showsSpeech: Bool = true, output: (GameOutput) -> Void
    ) async throws -> LanguageModelSession.Response<String> {
        var began = false
        var shown = ""
        do {
            let options = self.options
            let response = try await Self.watch(
                until: deadline, limit: limit, firstWordsBy: firstWordsDeadline,
                start: { session.streamResponse(to: prompt, context: context, options: options) }
            ) { progress in
                guard case .text(let text) = progress, showsSpeech else {
                    if case .notice(let notice) = progress { output(.notice("\(notice)")) }
                    return
                }
                if !began {
                    output(.speechBegan(npc: name))
                    began = true
                }
                if text.hasPrefix(shown) {
                    if text.count > shown.count { output(.speech(String(text.dropFirst(shown.count)))) }
                } else {
                    output(.speech(" " + text))
                }
                shown = text
            }
            guard showsSpeech else { return response }
            if !began {
                output(.speechBegan(npc: name))
                output(.speech(response.content))
            }
            output(.speechEnded)
            return response
        } catch {
            if began { output(.speechEnded) }
            throw error
        }
    }

    /// Trims an NPC's working transcript by its context policy; `attempt` counts the trims of this turn.
    func recoverContext(of npcID: NPCID, contextSize: Int, attempt: Int = 1) async throws {
        guard var conversation = conversations[npcID], let npc = state.world.npcs[npcID] else {
            throw LanguageModelError.contextSizeExceeded(.init(contextSize: contextSize, tokenCount: contextSize))
        }
        conversation.notes = nil
        guard let instructions = conversation.composedInstructions() else {
            throw LanguageModelError.contextSizeExceeded(.init(contextSize: contextSize, tokenCount: contextSize))
        }
        let recovery = ContextRecovery(policy: npc.contextPolicy, model: conversation.session.model)
        let trimmed = try await recovery.trim(
            conversation.session.transcript, instructions: instructions,
            tools: conversation.session.tools.map { Transcript.ToolDefinition(tool: $0) },
            summary: conversation.summary,
            facts: facts(about: npcID), contextSize: contextSize, attempt: attempt)
        conversation.session.transcript = trimmed.transcript
        // The kept turns are the history's last entries: the working transcript is the history from there on.
        conversation.workingStart = conversation.history.count - (trimmed.transcript.count - 1)
        conversation.summary = trimmed.summary
        conversation.notes = trimmed.notes
        conversation.lastFactChoice = trimmed.facts
        conversation.trims += 1
        conversations[npcID] = conversation
    }

    /// What the player is told when a turn failed: why, and that their words were not lost.
    static func explain(_ error: any Error, npc: String) -> String {
        switch error {
        case LanguageModelError.contextSizeExceeded:
            "\(npc) has lost the thread of this long conversation (\(error)). Your words were not lost: say them again."
        default:
            "\(npc) did not answer: \(error) Your words were not lost: say them again."
        }
    }
}
