import Foundation
import GameWorld
import LanguageModels

/// Shortens an NPC's working transcript when a turn would overflow the model's context window.
///
/// The trim happens in one block, down to about half the room the window leaves beside the instructions and the
/// tool definitions, and only when needed: between trims the prompt prefix
/// stays byte-for-byte the same, so a server's prompt cache keeps working. The full conversation is never lost:
/// the engine keeps it beside the working transcript, and saves, `history` and `parley transcript` show all of it.
///
/// With the `summary` policy the new working transcript is: the NPC's instructions, plus a running summary of the
/// trimmed turns (written by the NPC's own model, or extracted deterministically for the scripted model or when
/// the model cannot summarize) and the facts that matter (the player's name, prices agreed, items exchanged, the
/// pending offer); then as many recent turns as fit. With `firstAndLast`, the instructions and the recent turns.
package struct ContextRecovery {
    let policy: ContextPolicy
    let model: any LanguageModel

    /// Creates the recovery of one NPC's conversation.
    ///
    /// - Parameters:
    ///   - policy: How the NPC's context is trimmed.
    ///   - model: The NPC's model (it counts tokens, and may write the summary).
    package init(policy: ContextPolicy, model: any LanguageModel) {
        self.policy = policy
        self.model = model
    }

    /// The share of the room left for turns that the kept turns may fill, leaving the rest for the next turns, by
    /// attempt: a turn whose tool outputs are long may still not fit after the first trim, so each further attempt
    /// keeps fewer recent turns, and the last keeps none (the summary and the facts carry the conversation).
    static let targetShares = [0.5, 0.2, 0.0]

    /// The result of a trim.
    package struct Trimmed {
        package var transcript: Transcript
        var summary: String
        /// The summary and facts added to the instructions, or `nil` under `firstAndLast`.
        var notes: String?
        /// The facts the trim was given, the room they had (in characters) and those it kept, in the order the
        /// notes list them: what a test of the policy checks against.
        var facts: FactChoice?
    }

    /// Which facts a trim kept of those it was given, within how many characters.
    struct FactChoice: Equatable {
        var offered: [String]
        var budgetCharacters: Int
        var kept: [String]
    }

    /// Trims a working transcript.
    ///
    /// - Parameters:
    ///   - working: The transcript that no longer fits.
    ///   - instructions: The NPC's original instructions entry.
    ///   - summary: The running summary so far.
    ///   - facts: The facts that must survive, one per line.
    ///   - contextSize: The model's window in tokens.
    ///   - attempt: 1 for the first trim of a turn, higher when the turn still did not fit: see `targetShares`.
    /// - Returns: The shorter transcript and the new running summary.
    package func trim(
        _ working: Transcript, instructions: Transcript.Instructions, tools: [Transcript.ToolDefinition],
        summary: String, facts: [String], contextSize: Int, attempt: Int = 1
    ) async throws -> Trimmed {
        let window = min(contextSize, 1 << 30)
        // What every request carries (instructions, tool definitions) is fixed; the summary and facts get a fifth of
        // what is left, and recent turns may fill half of the rest, so the next turns have room until the next trim.
        let fixed = try await model.tokenCount(
            for: GenerationRequest(transcript: Transcript(entries: [.instructions(instructions)]), tools: tools))
        let free = max(0, window - fixed)
        let notesBudget = free / 5
        let share = Self.targetShares[min(max(attempt, 1), Self.targetShares.count) - 1]
        let turnBudget = Int(Double(free - notesBudget) * share)
        let turns = Self.turns(of: working.history)
        // Keep the most recent turns that fit; trim at least one (all of them on the last attempt).
        var kept: [[Transcript.Entry]] = []
        var used = 0
        for turn in turns.dropFirst().reversed() {
            let cost = try await model.tokenCount(for: turn)
            if used + cost > turnBudget { break }
            kept.insert(turn, at: 0)
            used += cost
        }
        let dropped = Array(turns.prefix(turns.count - kept.count))
        var newSummary = summary
        var addition: [String] = []
        var choice: FactChoice?
        if policy == .summary {
            // The notes' budget in text, by `TokenEstimate`'s rule. The facts come first (an early agreement must
            // survive); the summary gets the rest of the notes' budget, and at least a line.
            let notesCharacters = TokenEstimate.bytes(inTokens: notesBudget)
            let kept = Self.fit(facts, budgetCharacters: notesCharacters)
            choice = FactChoice(offered: facts, budgetCharacters: notesCharacters, kept: kept)
            let characters = max(80, notesCharacters - kept.reduce(0) { $0 + $1.count + 3 })
            // Nothing new to summarize (a turn that does not fit on its own): keep the summary, ask no model.
            newSummary =
                dropped.isEmpty
                ? String(summary.suffix(characters))
                : await summarize(dropped, previous: summary, budgetCharacters: characters)
            if !newSummary.isEmpty { addition.append("Earlier in this conversation: \(newSummary)") }
            if !kept.isEmpty {
                addition.append("Facts that still hold:\n" + kept.map { "- \($0)" }.joined(separator: "\n"))
            }
        }
        var entry = instructions
        let notes = addition.isEmpty ? nil : addition.joined(separator: "\n")
        if let notes { entry.segments.append(.text(.init(content: notes))) }
        return Trimmed(
            transcript: Transcript(entries: [.instructions(entry)] + kept.joined()), summary: newSummary, notes: notes,
            facts: choice)
    }

    /// The facts that fit a budget, in order: the player's name and the oldest dealings first, since what was
    /// agreed early is what a trim would otherwise lose; the pending offer is kept whenever it fits.
    static func fit(_ facts: [String], budgetCharacters: Int) -> [String] {
        guard let first = facts.first else { return [] }
        let pending = facts.dropFirst().filter { $0.hasPrefix(Game.pendingFactPrefix) }
        var used = first.count + pending.reduce(0) { $0 + $1.count + 3 }
        var kept = [first]
        for fact in facts.dropFirst() where !fact.hasPrefix(Game.pendingFactPrefix) {
            if used + fact.count + 3 > budgetCharacters { break }
            kept.append(fact)
            used += fact.count + 3
        }
        return kept + pending
    }

    /// The entries grouped in turns, each starting with a prompt.
    static func turns(of entries: some Sequence<Transcript.Entry>) -> [[Transcript.Entry]] {
        var turns: [[Transcript.Entry]] = []
        for entry in entries {
            if case .prompt = entry {
                turns.append([entry])
            } else if turns.isEmpty {
                turns.append([entry])
            } else {
                turns[turns.count - 1].append(entry)
            }
        }
        return turns
    }

    /// A running summary of the trimmed turns: by the model itself, or extracted when it cannot (a model that does
    /// not write free text, such as the scripted model; a model that fails; an empty answer).
    func summarize(_ turns: [[Transcript.Entry]], previous: String, budgetCharacters: Int) async -> String {
        let lines = turns.map(Self.line)
        if model.writesFreeText {
            let session = LanguageModelSession(
                model: model,
                instructions:
                    "You keep notes on a conversation in a game. Write one short paragraph, in the third person, "
                    + "with what was said and agreed. Keep names, items, prices and promises.")
            let prompt =
                (previous.isEmpty ? "" : "Notes so far: \(previous)\n") + "New lines:\n" + lines.joined(separator: "\n")
            let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: max(16, TokenEstimate.tokens(inBytes: budgetCharacters)))
            if let written = try? await session.respond(
                to: String(prompt.suffix(budgetCharacters * 3)), options: options
            )
            .content.trimmingCharacters(in: .whitespacesAndNewlines), !written.isEmpty {
                return String(written.prefix(budgetCharacters))
            }
        }
        return Self.extract(lines, previous: previous, budgetCharacters: budgetCharacters)
    }

    /// The deterministic summary: the previous one and the trimmed lines, most recent kept when they do not fit.
    static func extract(_ lines: [String], previous: String, budgetCharacters: Int) -> String {
        var parts = (previous.isEmpty ? [] : previous.components(separatedBy: " / ")) + lines
        while parts.joined(separator: " / ").count > budgetCharacters, parts.count > 1 { parts.removeFirst() }
        let text = parts.joined(separator: " / ")
        return text.count > budgetCharacters ? String(text.suffix(budgetCharacters)) : text
    }

    /// One turn in one line: `player: "…" → "…"`.
    static func line(_ turn: [Transcript.Entry]) -> String {
        func clip(_ text: String) -> String { text.count > 80 ? String(text.prefix(77)) + "…" : text }
        var said = ""
        var answer = ""
        for entry in turn {
            switch entry {
            case .prompt(let prompt):
                said = prompt.segments.compactMap { if case .text(let t) = $0 { t.content } else { nil } }.joined()
            case .response(let response): answer = response.segments.map(\.description).joined()
            default: break
            }
        }
        return "\"\(clip(said))\" → \"\(clip(answer))\""
    }
}

extension Game {
    /// How the pending offer's fact starts.
    static let pendingFactPrefix = "Waiting for the player's answer:"

    /// The facts about an NPC's dealings that must survive a trim: who the player is, what was traded and given,
    /// what is on offer, and the last promises the NPC made (its sentences with "promise" in them).
    func facts(about npcID: NPCID) -> [String] {
        let state = self.state
        let world = state.world
        let name = world.name(of: npcID)
        // The name the player gave in this conversation, else the game's: what the NPC calls them.
        let given = conversationFacts(of: npcID, saying: nil)
        let player = given.playerCalled ?? state.player.name
        // (The whole name they gave, "Hal Brightwater", so that a surname asked after a trim is still known.)
        var facts = ["The player's name is \(given.playerFullName ?? player)."]
        for dealing in state.story.dealings(with: npcID) {
            let goods = "\(dealing.quantity) × \(world.name(of: dealing.item))"
            switch dealing.kind {
            case .bought: facts.append("\(name) sold \(goods) to \(player) for \(dealing.gold) gold.")
            case .sold: facts.append("\(name) bought \(goods) from \(player) for \(dealing.gold) gold.")
            case .gave: facts.append("\(player) gave \(name) \(goods).")
            case .received: facts.append("\(name) gave \(player) \(goods).")
            case .tradedIn: facts.append("\(player) traded in \(goods) to \(name) in part exchange.")
            }
        }
        if let pending = pendingOffers[npcID] { facts.append("\(Self.pendingFactPrefix) \(pending.summary)") }
        // Promises: the NPC's own sentences that promise something, the last few.
        let said =
            conversations[npcID]?.history.compactMap { entry -> String? in
                guard case .response(let response) = entry else { return nil }
                return response.segments.map(\.description).joined(separator: " ")
            } ?? []
        let promises = said.flatMap { $0.split(whereSeparator: { ".!?".contains($0) }) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.lowercased().contains("promise") || $0.lowercased().hasPrefix("i'll keep") }
        for promise in promises.suffix(3) { facts.append("\(name) said: \"\(promise).\"") }
        return facts
    }
}
