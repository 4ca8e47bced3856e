import Foundation
import GameWorld
import LanguageModels
import NPCContract
import ParleyBasics

// Talking: starting and ending conversations, turns, offers, history.

extension Game {
    func talk(to name: String, output: (GameOutput) -> Void) async {
        guard let npc = npcHere(named: name) else {
            let here = state.npcsHere.map(\.name)
            return output(
                .problem("There is no \(name) here." + (here.isEmpty ? "" : " Here: \(here.joined(separator: ", ")).")))
        }
        partner = npc.id
        let first = conversationFacts(of: npc.id, saying: nil).isFirstMeeting
        await witness(.arrived, npc: npc.id, beat: first ? .firstTalk : nil, output: output)
    }

    func say(_ text: String, output: (GameOutput) -> Void) async {
        guard let partner else {
            return output(.problem("You are not talking to anyone. Try: talk to <name>"))
        }
        await speak(Prompt(text), to: partner, output: output)
    }

    func bye(output: (GameOutput) -> Void) async {
        guard let npc = partner else { return output(.narration("You are not talking to anyone.")) }
        await witness(.left, npc: npc, output: output)
        partner = nil
    }

    /// Tells an NPC what just happened and lets it answer, unless an authored beat for the event answers.
    func witness(_ event: WitnessedEvent, npc: NPCID, beat: BeatEvent? = nil, output: (GameOutput) -> Void) async {
        if let beat, await fireBeat(beat, npc: npc, witnessed: event, output: output) { return }
        await speak(event.prompt(player: state.player.name, in: state.world), to: npc, output: output)
    }

    /// One turn: the prompt goes to the NPC's session, the answer streams out, the turn's context is recorded.
    /// On failure the session rolls the turn back and the player hears why.
    func speak(_ prompt: Prompt, to npcID: NPCID, output: (GameOutput) -> Void, saying beatLine: String? = nil) async {
        let name = state.world.name(of: npcID)
        let conversation: NPCConversation
        do {
            conversation = try await self.conversation(with: npcID)
        } catch {
            return output(.problem("\(name) cannot speak: \(error)"))
        }
        let turnContext = generationContext(for: npcID, saying: prompt, model: conversation.session.model)
        refreshKnowledge(of: npcID)
        let context = state.annotations(talkingTo: npcID)
        let refusalsBefore = shared.read(\.refusedOffers.count)
        let lastWords = conversation.session.transcript.last { if case .response = $0 { true } else { false } }
        let world = state.world
        shared.update { $0.quotes[npcID] = TradeGuard.quotes(in: lastWords?.description ?? "", world: world) }
        defer { reportRefusals(since: refusalsBefore, npc: npcID) }
        output(.thinking(npc: name))
        let clock = ContinuousClock()
        let started = clock.now
        let stateBefore = DynamicState(state)
        var attempt = 0
        func record(_ entries: [Transcript.Entry], failure: String?, usage: GenerationUsage?, firstWords: Duration?) {
            let session = conversations[npcID]?.session ?? conversation.session
            self.record(
                TurnRecording(
                    npc: npcID, instructions: session.transcript.first,
                    input: entries.first ?? .prompt(.init(segments: prompt.segments)),
                    context: context, stateBefore: stateBefore, entries: entries, failure: failure,
                    modelID: session.model.id, modelVersion: session.model.version, usage: usage,
                    firstWordsMilliseconds: firstWords?.milliseconds,
                    totalMilliseconds: (clock.now - started).milliseconds))
        }
        // The turn's time limit covers all of it: every attempt, trim and model call.
        let limit = Self.turnTimeout
        let deadline = started + limit
        func fail(_ error: any Error) {
            let model = conversation.session.model
            record([], failure: Self.withoutSecrets("\(error)", model: model), usage: nil, firstWords: nil)
            output(.problem(Self.withoutSecrets(Self.explain(error, npc: name), model: model)))
        }
        // Set when even the hardest trim left no room: the last attempt answers without tools (see below).
        var withoutTools = false
        while true {
            attempt += 1
            do {
                var firstWords: Duration?
                if let beatLine, attempt == 1 {
                    // An authored line comes first, verbatim (shown once, even when the turn is retried); it joins
                    // the model's response entry below.
                    output(.speechBegan(npc: name))
                    output(.speech(beatLine))
                    output(.speechEnded)
                }
                let session = withoutTools ? Self.sessionWithoutTools(like: conversation.session) : conversation.session
                let response = try await streamTurn(
                    prompt, context: turnContext, session: session, name: name, until: deadline, limit: limit
                ) { piece in
                    if firstWords == nil, case .speech = piece { firstWords = clock.now - started }
                    output(piece)
                }
                var entries = Array(response.transcriptEntries)
                if let beatLine { entries = Self.prepend(beatLine, to: entries, in: session) }
                if session !== conversation.session { conversation.session.transcript.append(contentsOf: entries) }
                conversations[npcID]?.history.append(contentsOf: entries)
                if let first = entries.first {
                    conversations[npcID]?.turnAnnotations[first.id] = context
                }
                changedConversations.insert(npcID)
                record(entries, failure: nil, usage: response.usage, firstWords: firstWords)
                await runRuleEffects(of: entries, for: npcID, output: output)
                return
            } catch LanguageModelError.contextSizeExceeded(let overflow)
                where attempt <= ContextRecovery.targetShares.count
            {
                // The conversation outgrew the window: trim it in one block, keeping what matters, and try again;
                // harder each time the turn still does not fit (long tool outputs can need more room than one trim).
                do {
                    try await Self.runUntil(deadline, limit: limit) { [attempt] in
                        try await self.recoverContext(of: npcID, contextSize: overflow.contextSize, attempt: attempt)
                    }
                } catch {
                    return fail(error)
                }
            } catch LanguageModelError.contextSizeExceeded where !withoutTools {
                // Even with no earlier turn kept, this turn does not fit: the NPC's tool definitions take much of a
                // small window. One last attempt without them: an answer in character that looks nothing up.
                withoutTools = true
            } catch {
                return fail(error)
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
    )
        -> [Transcript.Entry]
    {
        var entries = entries
        guard let index = entries.lastIndex(where: { if case .response = $0 { true } else { false } }),
            case .response(var answer) = entries[index]
        else { return entries }
        answer.segments.insert(.text(.init(content: line)), at: 0)
        entries[index] = .response(answer)
        var transcript = session.transcript
        if let position = transcript.lastIndex(where: { $0.id == answer.id }) {
            transcript[position] = .response(answer)
        }
        session.transcript = transcript
        return entries
    }

    /// Streams one attempt at a turn to the output, until the turn's deadline; the speech is closed even when the
    /// turn fails. The model server's notices (retries, rate limits) are shown as they come.
    func streamTurn(
        _ prompt: Prompt, context: GenerationContext = GenerationContext(), session: LanguageModelSession, name: String, until deadline: ContinuousClock.Instant,
        limit: Duration, output: (GameOutput) -> Void
    ) async throws -> LanguageModelSession.Response<String> {
        var began = false
        var shown = ""
        do {
            let options = self.options
            let response = try await watch(
                until: deadline, limit: limit, start: { session.streamResponse(to: prompt, context: context, options: options) }
            ) { progress in
                guard case .text(let text) = progress else {
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
        conversation.summary = trimmed.summary
        conversation.notes = trimmed.notes
        conversation.lastFactChoice = trimmed.facts
        conversation.trims += 1
        conversations[npcID] = conversation
    }

    /// The NPC's conversation, created at first contact with instructions from its persona and the game now.
    func conversation(with npcID: NPCID) async throws -> NPCConversation {
        if let existing = conversations[npcID] { return existing }
        let state = self.state
        guard let npc = state.world.npcs[npcID] else { throw GameEventError.unknownNPCError(npcID) }
        let model = try await models(npc, state.world)
        let toolbox = NPCToolbox(
            npc: npcID, state: shared,
            onRefusal: { [shared] refusal in
                shared.update { $0.refusedOffers.append(refusal) }
            })
        let tools = toolbox.tools()
        let conversation: NPCConversation
        if let restored, restored.npcs.contains(npcID), let saved = try restored.load(npcID) {
            // The conversation continues where it was: the NPC remembers everything said in this save. (If it no
            // longer fits the window, the first turn trims it, as during play.)
            let session = LanguageModelSession(model: model, tools: tools, transcript: saved.transcript)
            conversation = NPCConversation(npc: npcID, session: session, turnAnnotations: saved.turnAnnotations)
        } else {
            let session = LanguageModelSession(
                model: model, tools: tools,
                instructions: NPCInstructions.make(npc: npc, state: state, hasTradeTools: npc.trade.trades))
            conversation = NPCConversation(npc: npcID, session: session)
        }
        conversations[npcID] = conversation
        refreshKnowledge(of: npcID)
        return conversations[npcID] ?? conversation
    }

    static func explain(_ error: any Error, npc: String) -> String {
        switch error {
        case LanguageModelError.contextSizeExceeded:
            "\(npc) has lost the thread of this long conversation (\(error)). Your words were not lost: say them again."
        default:
            "\(npc) did not answer: \(error) Your words were not lost: say them again."
        }
    }

    // MARK: - Offers

    func describeOffers() -> String {
        let offers = pendingOffers
        guard !offers.isEmpty else { return "No offers are waiting for your answer." }
        return offers.sorted { $0.key.rawValue < $1.key.rawValue }.map { "  \($0.value.summary)" }.joined(
            separator: "\n")
    }

    func answerOffer(accepting: Bool, output: (GameOutput) -> Void) async {
        let offers = pendingOffers
        let npcID = partner.flatMap { offers[$0] != nil ? $0 : nil } ?? (offers.count == 1 ? offers.keys.first : nil)
        guard let npcID, let pending = offers[npcID] else {
            return output(
                .narration(
                    offers.isEmpty
                        ? "No offer is waiting for your answer." : "Which offer? Talk to the one who made it."))
        }
        shared.update { $0.pendingOffers[npcID] = nil }
        if accepting {
            do {
                try shared.apply(.traded(offer: pending.offer))
            } catch {
                return output(.problem("The trade cannot happen any more: \(error.message)"))
            }
            output(.narration("Done: \(pending.summary)"))
        }
        guard state.world.npcs[npcID]?.location == state.player.location else { return }
        partner = npcID
        let event: WitnessedEvent =
            accepting
            ? .offerAccepted(summary: pending.summary) : .offerDeclined(summary: pending.summary)
        await witness(
            event, npc: npcID, beat: accepting ? .tradeAccepted(pending.offer) : .tradeRefused(pending.offer),
            output: output)
    }

    // MARK: - History

    func describeHistory() -> String {
        guard let partner, let conversation = conversations[partner] else {
            return "You are not talking to anyone."
        }
        let name = state.world.name(of: partner)
        let lines = conversation.history.history.compactMap { entry -> String? in
            switch entry {
            case .prompt(let prompt):
                let text = prompt.segments.compactMap { if case .text(let t) = $0 { t.content } else { nil } }.joined()
                return prompt.isWitnessedEvent ? text : "You: \(text)"
            case .response(let response): return "\(name): \(response.segments.map(\.description).joined())"
            default: return nil
            }
        }
        return lines.isEmpty ? "You have not spoken with \(name) yet." : lines.joined(separator: "\n")
    }
}

extension GameEventError {
    static func unknownNPCError(_ npc: NPCID) -> any Error {
        struct UnknownNPC: Error, CustomStringConvertible {
            let npc: NPCID
            var description: String { "there is no NPC \"\(npc.rawValue)\" in this world" }
        }
        return UnknownNPC(npc: npc)
    }
}
