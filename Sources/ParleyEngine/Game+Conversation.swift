import Foundation
import GameWorld
import LanguageModels
import NPCContract

// Conversations: starting and ending them, what NPCs witness, answering offers, the history the player reads. A
// turn itself is in `Game+Turn.swift`.

extension Game {
    func talk(to name: String, output: (GameOutput) -> Void) async {
        guard let npc = npcHere(named: name) else {
            let here = state.npcsHere.map(\.name)
            return output(
                .problem("There is no \(name) here." + (here.isEmpty ? "" : " Here: \(here.joined(separator: ", ")).")))
        }
        partner = npc.id
        // A saved conversation is read at first contact: read it before asking whether this is the first meeting,
        // or a loaded (or reloaded) game would meet everyone for the first time again.
        _ = try? await conversation(with: npc.id)
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

    /// The NPC's conversation, created at first contact with instructions from its persona and the game now.
    func conversation(with npcID: NPCID) async throws -> NPCConversation {
        if let existing = conversations[npcID] { return existing }
        let state = self.state
        guard let npc = state.world.npcs[npcID] else { throw GameEventError.unknownNPCError(npcID) }
        let model = try await models(npc, state.world)
        var toolbox = NPCToolbox(
            npc: npcID, state: shared,
            onRefusal: { [shared] refusal in
                shared.update { $0.refusedOffers.append(refusal) }
            })
        toolbox.actionHandling = actionHandling
        let tools = toolbox.tools()
        let conversation: NPCConversation
        if let restored, restored.npcs.contains(npcID), let saved = try restored.load(npcID) {
            // The conversation continues where it was: the NPC remembers everything said in this save. (If it no
            // longer fits the window, the first turn trims it, as during play.)
            conversation = NPCConversation(npc: npcID, saved: saved) {
                LanguageModelSession(model: model, tools: tools, transcript: $0)
            }
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
            output(.narration(pending.offer.accepted(in: state.world)))
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

    /// The conversation with the NPC the player is talking to, reading it from the save at first need (a continued
    /// game goes on talking to its partner before any new line is said); `nil` when the player talks to no one.
    func partnerConversation() async -> NPCConversation? {
        guard let partner else { return nil }
        if let open = conversations[partner] { return open }
        guard restored?.npcs.contains(partner) == true else { return nil }
        return try? await conversation(with: partner)
    }

    func describeHistory() async -> String {
        guard let partner, let conversation = await partnerConversation() else {
            return "You are not talking to anyone."
        }
        let name = state.world.name(of: partner)
        let lines = conversation.history.history.compactMap { entry -> String? in
            switch entry {
            case .prompt(let prompt):
                let text = prompt.segments.compactMap { if case .text(let t) = $0 { t.content } else { nil } }.joined()
                return prompt.isWitnessedEvent ? text : "You: \(text)"
            // A beat's line and the model's reply are two segments of one response: said one after the other.
            case .response(let response):
                return "\(name): \(response.segments.map(\.description).joined(separator: " "))"
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
