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

    /// A turn of free mode: the server answers it, unless the voice is switched off. Its reply streams, and each
    /// sentence (`SpokenSentences`) is shown as soon as it is complete and the claim check finds nothing false in the
    /// reply so far (the last sentence is checked with the whole reply and the turn's tool outputs). When its first
    /// words miss the deadline, the server fails, or a sentence states something false before any was shown, the
    /// planner answers instead (a context that overflows is left to the caller, which trims it). A reply taken back
    /// leaves the transcript as it was before the turn; the tools the server called have done what they did, and the
    /// planner answers from the game as it now is.
    ///
    /// Once a sentence is shown nothing is taken back: when a later one fails (or the server fails or is late), it is
    /// never shown, the planner answers the turn unseen, and the rest of its line after the sentences shown is said
    /// (`VoicedLineCheck.remainder(of:after:)`); the turn's entries are the planner's, its response holding exactly
    /// what was shown. Outcome `partlyVoiced`.
    ///
    /// - Returns: The turn's entries (appended to `session`), its usage, and how it came to be.
    func freeTurn(
        _ prompt: Prompt, model: ModelVoicing, session: LanguageModelSession, conversation: NPCConversation,
        context: GenerationContext, name: String, startedAt started: ContinuousClock.Instant,
        until deadline: ContinuousClock.Instant, limit: Duration, output: (GameOutput) -> Void
    ) async throws -> (entries: [Transcript.Entry], usage: GenerationUsage?, voicing: TurnVoicing) {
        var voicing = TurnVoicing(mode: .free, outcome: .fellBack, planner: model.plannerName)
        guard voiceEnabled else {
            voicing.reason = .planned
            let response = try await plannerTurn(
                prompt, planner: model.planner, session: session, context: context, name: name, until: deadline,
                limit: limit, output: output)
            return (Array(response.transcriptEntries), response.generationUsage, voicing)
        }
        voicing.attempts = 1
        let before = session.transcript
        let npcID = conversation.npc
        let checker = claimChecker ?? ClaimChecker(world: state.world)
        claimChecker = checker
        var said: [String] = []
        func say(_ sentence: String) {
            if said.isEmpty { output(.speechBegan(npc: name)) }
            output(.speech(said.isEmpty ? sentence : " " + sentence))
            said.append(sentence)
        }
        /// The false claims of the reply so far with `sentence` added; `entries`, the turn's, once they are known.
        func claims(adding sentence: String, entries: [Transcript.Entry]) -> [FalseClaim] {
            checker.falseClaims(
                in: (said + [sentence]).joined(separator: " "), npc: npcID, state: state, turnEntries: entries,
                pendingOffer: pendingOffers[npcID])
        }
        var sentences = SpokenSentences()
        var seen = ""
        do {
            let options = self.options
            let response = try await Self.watch(
                until: deadline, limit: limit, firstWordsBy: min(started + model.firstWordsDeadline, deadline),
                firstWordsSaid: { !said.isEmpty },
                start: { session.streamResponse(to: prompt, context: context, options: options) }
            ) { progress in
                switch progress {
                case .notice(let notice): output(.notice("\(notice)"))
                case .text(let text):
                    guard text.count > seen.count else { return }
                    let piece = text.hasPrefix(seen) ? String(text.dropFirst(seen.count)) : ""
                    seen = text
                    for sentence in sentences.append(piece) {
                        let sentence = GroundedVoicer.cleaned(sentence, first: false, speaker: name)
                        let found = claims(adding: sentence, entries: [])
                        guard found.isEmpty else {
                            throw GroundedVoicer.SentenceRefused(
                                problem: "\"\(sentence)\": "
                                    + found.map { "false claim: \($0)" }.joined(separator: "; "))
                        }
                        say(sentence)
                    }
                }
            }
            voicing.completionTokens = response.generationUsage?.completionTokens
            var entries = Array(response.transcriptEntries)
            let last = sentences.finish().map { GroundedVoicer.cleaned($0, first: false, speaker: name) }
            let found = last.map { claims(adding: $0, entries: entries) } ?? []
            if found.isEmpty {
                if let last { say(last) }
                if said.isEmpty {
                    // An empty reply: shown as it is (the turn reports its silence).
                    output(.speechBegan(npc: name))
                    output(.speech(response.content))
                } else {
                    entries = Self.replacingLine(in: entries, with: said.joined(separator: " "), session: session)
                }
                output(.speechEnded)
                voicing.outcome = .voiced
                return (entries, response.generationUsage, voicing)
            }
            // Never shown: the turn is taken back.
            session.transcript = before
            voicing.reason = .check
            voicing.problems = [
                "\"\(last ?? "")\": " + found.map { "false claim: \($0)" }.joined(separator: "; ")
            ]
        } catch let refused as GroundedVoicer.SentenceRefused {
            // The stream has settled; a turn it had already committed is taken back.
            session.transcript = before
            voicing.reason = .check
            voicing.problems = [refused.problem]
        } catch is FirstWordsMissed {
            session.transcript = before
            voicing.reason = .deadline
        } catch let error where Self.plannerMayAnswer(after: error) {
            session.transcript = before
            voicing.reason = .error
            voicing.problems = [Self.withoutSecrets("\(error)", model: model)]
        } catch {
            if !said.isEmpty { output(.speechEnded) }
            throw error
        }
        guard !said.isEmpty else {
            let response = try await plannerTurn(
                prompt, planner: model.planner, session: session, context: context, name: name, until: deadline,
                limit: limit, output: output)
            return (Array(response.transcriptEntries), response.generationUsage, voicing)
        }
        // Sentences were shown: the planner answers unseen, and the rest of its line is said.
        voicing.outcome = .partlyVoiced
        defer { output(.speechEnded) }
        let line = said.joined(separator: " ")
        // A planner that fails too fails the turn, as any failed turn (the sentences shown are not kept).
        let planned = try await plannerTurn(
            prompt, planner: model.planner, session: session, context: context, name: name, until: deadline,
            limit: limit, showsSpeech: false, output: output)
        voicing.planned = planned.content
        let numbers = state.world.lexicon(for: npcID).numbers
        let rest = VoicedLineCheck(vocabulary: checker.vocabulary, sentenceBudget: .max, numbers: numbers)
            .remainder(of: planned.content, after: line)
        if !rest.isEmpty { output(.speech(" " + rest)) }
        let entries = Self.replacingLine(
            in: Array(planned.transcriptEntries), with: rest.isEmpty ? line : line + " " + rest, session: session)
        return (entries, planned.generationUsage, voicing)
    }

    /// Puts `line` as the text of a turn's response entry, in the returned entries and in `session`'s transcript.
    static func replacingLine(
        in entries: [Transcript.Entry], with line: String, session: LanguageModelSession
    ) -> [Transcript.Entry] {
        editingResponse(in: entries, session: session) { response in
            if text(of: response.segments) != line { response.segments = [.text(.init(content: line))] }
        }
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
        name: String, until deadline: ContinuousClock.Instant, limit: Duration, showsSpeech: Bool = true,
        output: (GameOutput) -> Void
    ) async throws -> LanguageModelSession.Response<String> {
        let planning = LanguageModelSession(model: planner, tools: session.tools, transcript: session.transcript)
        let response = try await streamTurn(
            prompt, context: context, session: planning, name: name, until: deadline, limit: limit,
            showsSpeech: showsSpeech, output: output)
        session.transcript.append(contentsOf: response.transcriptEntries)
        return response
    }

    /// Has the voice say a planned line (grounded voicing, see `GroundedVoicer`), sentence by sentence, and puts the
    /// line said in the turn's response entry, in the returned entries and in the NPC's session. Each sentence is
    /// shown (`speechBegan`, then `speech` pieces, then `speechEnded`) once it has passed the checks; when nothing of
    /// the voice's is said, the planned line is shown whole. What is shown is exactly what the entry keeps.
    ///
    /// - Returns: The entries with the line said, and how it came to be.
    func voice(
        _ entries: [Transcript.Entry], prompt: Prompt, model: ModelVoicing, conversation: NPCConversation,
        firstWordsBy firstWordsDeadline: ContinuousClock.Instant, until deadline: ContinuousClock.Instant,
        limit: Duration, output: (GameOutput) -> Void
    ) async -> (entries: [Transcript.Entry], voicing: TurnVoicing) {
        let npcID = conversation.npc
        let name = state.world.name(of: npcID)
        guard let npc = state.world.npcs[npcID],
            let index = entries.lastIndex(where: { if case .response = $0 { true } else { false } }),
            case .response(var response) = entries[index]
        else {
            let planned = entries.last { if case .response = $0 { true } else { false } }
            output(.speechBegan(npc: name))
            output(.speech(planned.map { Self.text(of: $0.segments) } ?? ""))
            output(.speechEnded)
            return (
                entries, TurnVoicing(mode: .grounded, outcome: .fellBack, reason: .check, planner: model.plannerName)
            )
        }
        var began = false
        defer { output(.speechEnded) }
        let checker = claimChecker ?? ClaimChecker(world: state.world)
        claimChecker = checker
        let voicer = GroundedVoicer(
            model: model, npc: npc, state: state, checker: checker, pendingOffer: pendingOffers[npcID])
        let (line, voicing) = await voicer.voice(
            planned: Self.text(of: response.segments), playerLine: Self.text(of: prompt.segments),
            recent: Self.recentLines(
                in: conversation.session.transcript, before: entries.first?.id, npc: npc, playerName: state.player.name),
            turnEntries: entries, firstWordsBy: firstWordsDeadline, until: deadline, limit: limit
        ) { piece in
            if !began { output(.speechBegan(npc: name)) }
            began = true
            output(.speech(piece))
        }
        guard let line else {
            output(.speechBegan(npc: name))
            output(.speech(Self.text(of: response.segments)))
            return (entries, voicing)
        }
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
    package static func recentLines(
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
    package static func text(of segments: [Transcript.Segment]) -> String {
        segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }.joined(separator: " ")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Has a server say a line the planner planned, sentence by sentence, each checked before anyone hears it (grounded
/// voicing): used by the game's turns and by `Replay`.
///
/// The voice's answer streams; each sentence (`SpokenSentences`) is checked as soon as it is complete, with the
/// sentences said before it (`VoicedLineCheck` on the line so far, leaving out what it still owes, then the game's
/// claim check on the game after the turn), and said (`say`) when it passes, so a game's text-to-speech can start on
/// the first one. The last sentence is checked with the whole line: what the line still owes (a fact of the planned
/// line) is checked then.
///
/// While nothing is said, a line that fails is dropped as before: the voice is asked once (greedy), and once more
/// (sampled) when its line fails and time remains; when both fail, the server fails, or the deadline passes, there is
/// no line, and the planned one is said. Once a sentence is said, nothing is taken back: a sentence that fails is
/// never said, the stream is dropped, and the rest of the planned line is said instead
/// (`VoicedLineCheck.remainder(of:after:)`); so it is when the server fails or is late part way, or when the whole
/// line still owes a fact at its end (the last sentence is said when it passes on its own). Outcome `partlyVoiced`.
package struct GroundedVoicer {
    /// The NPC's voice and planner (its model's `voicing`).
    let model: ModelVoicing
    /// The NPC.
    let npc: NPC
    /// The game after the planner's turn (its tools have run).
    let state: GameState
    /// The claim check of the world.
    let checker: ClaimChecker
    /// The offer pending after the planner's turn.
    let pendingOffer: PendingOffer?

    /// Creates the voicer of one turn.
    ///
    /// - Parameters:
    ///   - model: The NPC's voice and planner.
    ///   - npc: The NPC.
    ///   - state: The game after the planner's turn.
    ///   - checker: The claim check of the world.
    ///   - pendingOffer: The offer pending after the planner's turn.
    package init(
        model: ModelVoicing, npc: NPC, state: GameState, checker: ClaimChecker, pendingOffer: PendingOffer?
    ) {
        self.model = model
        self.npc = npc
        self.state = state
        self.checker = checker
        self.pendingOffer = pendingOffer
    }

    /// A sentence that failed its checks, which ends the voice's stream.
    struct SentenceRefused: Error {
        /// The sentence and what is wrong with it, as `TurnVoicing.problems` keeps it.
        let problem: String
    }

    /// The voice's line has as many sentences as it may: the rest of its stream is dropped.
    struct BudgetReached: Error {}

    /// Voices a planned line.
    ///
    /// - Parameters:
    ///   - planned: The planner's line.
    ///   - playerLine: What the player said this turn.
    ///   - recent: The conversation's last lines before the turn.
    ///   - turnEntries: The turn's entries (its tool outputs are facts the line may state).
    ///   - firstWordsDeadline: When its first sentence must have been said; a voice that has said none by then is
    ///     dropped (`deadline`).
    ///   - deadline: When the line must be over.
    ///   - limit: The turn's time limit, for errors.
    ///   - say: Says the next piece of the line (a sentence, with a space before it after the first); the pieces
    ///     said, joined, are the returned line.
    /// - Returns: The line said, or `nil` when nothing was said and the planned line is to be said whole; and how it
    ///   came to be.
    package nonisolated(nonsending) func voice(
        planned: String, playerLine: String, recent: [(speaker: String, line: String)],
        turnEntries: [Transcript.Entry], firstWordsBy firstWordsDeadline: ContinuousClock.Instant,
        until deadline: ContinuousClock.Instant, limit: Duration, say: (String) -> Void = { _ in }
    ) async -> (line: String?, voicing: TurnVoicing) {
        var voicing = TurnVoicing(mode: .grounded, outcome: .fellBack, planned: planned, planner: model.plannerName)
        guard !planned.isEmpty else {
            voicing.reason = .check
            return (nil, voicing)
        }
        // A planned line longer than the budget (a list of wares) may keep its length.
        let budget = max(model.sentenceBudget, SpokenSentences.sentences(of: planned).count)
        let numbers = state.world.lexicon(for: npc.id).numbers
        let lineCheck = VoicedLineCheck(vocabulary: checker.vocabulary, sentenceBudget: budget, numbers: numbers)
        // The line said so far is cut into sentences here, not by the check.
        let sentenceCheck = VoicedLineCheck(vocabulary: checker.vocabulary, sentenceBudget: .max, numbers: numbers)
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
        var said: [String] = []
        /// The problems of a line said so far with `sentence` added; empty when it may be said.
        func problems(adding sentence: String, complete: Bool) -> [String] {
            let line = (said + [sentence]).joined(separator: " ")
            let result = sentenceCheck.check(
                line, planned: planned, playerLine: playerLine, speaker: npc.name, sources: prompt.sources,
                complete: complete)
            guard result.problems.isEmpty else { return result.problems }
            return checker.falseClaims(
                in: line, npc: npc.id, state: state, turnEntries: turnEntries, pendingOffer: pendingOffer
            ).map { "false claim: \($0)" }
        }
        /// Says a sentence that passed.
        func add(_ sentence: String) {
            say(said.isEmpty ? sentence : " " + sentence)
            said.append(sentence)
        }
        /// Takes the next complete sentence of the stream: said when it passes, else the stream ends.
        func take(_ raw: String) throws {
            guard said.count < budget else { throw BudgetReached() }
            let sentence = Self.cleaned(raw, first: said.isEmpty, speaker: npc.name)
            guard !sentence.isEmpty else { return }
            let found = problems(adding: sentence, complete: false)
            guard found.isEmpty else {
                throw SentenceRefused(problem: "\"\(sentence)\": " + found.joined(separator: "; "))
            }
            add(sentence)
        }
        for options in attempts {
            guard ContinuousClock.now < min(firstWordsDeadline, deadline) else {
                voicing.reason = .deadline
                break
            }
            voicing.attempts += 1
            let session = LanguageModelSession(model: model.voice, tools: [], transcript: prompt.transcript)
            let text = prompt.prompt
            var sentences = SpokenSentences()
            var seen = ""
            var ended: (any Error)?
            // Why this attempt's line stopped short, if it did.
            var stopped: TurnVoicing.FallbackReason?
            do {
                // Streamed: each sentence is checked and said as soon as it is complete, and a server stops
                // generating as soon as a stream is dropped (a failed sentence, the deadline).
                let response = try await Game.watch(
                    until: deadline, limit: limit, firstWordsBy: min(firstWordsDeadline, deadline),
                    firstWordsSaid: { !said.isEmpty },
                    start: { session.streamResponse(to: Prompt(text), options: options) }
                ) { progress in
                    guard case .text(let text) = progress, text.count > seen.count else { return }
                    let piece = text.hasPrefix(seen) ? String(text.dropFirst(seen.count)) : ""
                    seen = text
                    for sentence in sentences.append(piece) { try take(sentence) }
                }
                if let count = response.generationUsage?.completionTokens {
                    voicing.completionTokens = (voicing.completionTokens ?? 0) + count
                }
            } catch {
                ended = error
            }
            if ended == nil || ended is BudgetReached {
                // The last sentence, checked with the whole line: what the line still owes is checked now.
                let rest = ended == nil ? sentences.finish() : nil
                let last = rest.map { Self.cleaned($0, first: said.isEmpty, speaker: npc.name) }
                if let last, !last.isEmpty, said.count < budget {
                    let whole = problems(adding: last, complete: true)
                    if whole.isEmpty {
                        add(last)
                    } else if said.isEmpty {
                        ended = SentenceRefused(problem: "\"\(last)\": " + whole.joined(separator: "; "))
                    } else {
                        // Sentences were said: the last one is said when it passes on its own; what is still owed
                        // comes from the planned line.
                        if problems(adding: last, complete: false).isEmpty { add(last) }
                        voicing.problems.append("\"\(said.joined(separator: " "))\": " + whole.joined(separator: "; "))
                        stopped = .check
                    }
                } else if !said.isEmpty {
                    let whole = lineCheck.check(
                        said.joined(separator: " "), planned: planned, playerLine: playerLine, speaker: npc.name,
                        sources: prompt.sources
                    ).problems
                    if !whole.isEmpty {
                        voicing.problems.append("\"\(said.joined(separator: " "))\": " + whole.joined(separator: "; "))
                        stopped = .check
                    }
                } else if ended == nil {
                    ended = SentenceRefused(problem: "\"\": it says nothing")
                }
            }
            switch ended {
            case nil, is BudgetReached: break
            case let refused as SentenceRefused:
                voicing.problems.append(refused.problem)
                stopped = .check
            case is TurnTimeout, is Game.FirstWordsMissed:
                stopped = .deadline
            case let error?:
                voicing.problems.append(Game.withoutSecrets("\(error)", model: model))
                stopped = .error
            }
            voicing.reason = stopped
            if !said.isEmpty {
                let line = said.joined(separator: " ")
                guard stopped != nil else {
                    voicing.outcome = voicing.attempts == 1 ? .voiced : .regenerated
                    return (line, voicing)
                }
                voicing.outcome = .partlyVoiced
                let rest = lineCheck.remainder(of: planned, after: line)
                guard !rest.isEmpty else { return (line, voicing) }
                say(" " + rest)
                return (line + " " + rest, voicing)
            }
            // Nothing was said: a line that failed its checks is asked again; a late or failed server is not.
            guard ended is SentenceRefused else { break }
        }
        return (nil, voicing)
    }

    /// A sentence of a voiced line as it would be said: a `Name:` label and an opening quote removed from the first,
    /// a quote that closes nothing removed from its end, spaces collapsed (see `VoicedLineCheck.cleaned`).
    static func cleaned(_ sentence: String, first: Bool, speaker: String) -> String {
        var line = sentence.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let quotes: Set<Character> = ["\"", "\u{201C}", "\u{201D}"]
        if first {
            for label in [speaker, speaker.split(separator: " ").first.map(String.init) ?? speaker]
            where !label.isEmpty && line.lowercased().hasPrefix(label.lowercased() + ":") {
                line = String(line.dropFirst(label.count + 1)).trimmingCharacters(in: .whitespaces)
            }
        }
        let count = line.filter { quotes.contains($0) }.count
        if first, count == 2, let opening = line.first, let closing = line.last, quotes.contains(opening),
            quotes.contains(closing), line.count > 1
        {
            line = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        } else if count % 2 == 1, let firstCharacter = line.first, quotes.contains(firstCharacter) {
            line = String(line.dropFirst()).trimmingCharacters(in: .whitespaces)
        } else if count % 2 == 1, let last = line.last, quotes.contains(last) {
            line = String(line.dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return line
    }
}
