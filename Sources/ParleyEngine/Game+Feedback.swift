import Foundation
import GameWorld
import LanguageModels

// What the game keeps of its turns for others: feedback reports (refused offers, the player's `report`) and turn
// recordings, until a host saves them.

/// A feedback report the game made, about one NPC's conversation.
public struct FeedbackReport: Sendable, Equatable {
    /// The NPC whose conversation it is about.
    public var npc: NPCID
    /// The report, in the documented format (`docs/feedback-format.md`).
    public var attachment: FeedbackAttachment
}

/// The recordings and feedback reports a game made: all of them, and those a host has not taken yet.
struct Attachments {
    /// Every NPC turn taken so far, recorded for replay, oldest first.
    var recordings: [TurnRecording] = []
    /// The feedback reports made so far, oldest first.
    var feedback: [FeedbackReport] = []
    /// The reports and recordings made since a host last took them (`Game.takeNewAttachments()`).
    var new: (feedback: [FeedbackReport], recordings: [TurnRecording]) = ([], [])
}

extension Game {
    /// Every NPC turn taken in this game so far, recorded for replay, oldest first.
    public var recordings: [TurnRecording] { attachments.recordings }

    /// The feedback reports made so far, oldest first.
    public var feedback: [FeedbackReport] { attachments.feedback }

    /// Hands over the feedback reports and turn recordings made since the last call, so that a host saves each
    /// exactly once, with the turn that made it, without counting what it took before.
    ///
    /// - Returns: The new reports and recordings, oldest first; the next call returns only later ones.
    public func takeNewAttachments() -> (feedback: [FeedbackReport], recordings: [TurnRecording]) {
        defer { attachments.new = ([], []) }
        return attachments.new
    }

    /// The feedback report about an offer the guard refused during a turn: a feedback attachment with the whole
    /// transcript (or the rolled-back turn) and the game context. `nil` when the NPC has no session.
    func refusalReport(_ refusal: RefusedOffer, npc: NPCID) -> FeedbackReport? {
        guard let session = conversations[npc]?.session else { return nil }
        let state = self.state
        let explanation = "Unexpected trade offer. App context — " + Self.context(of: refusal, in: state)
        let desired = Transcript.Entry.response(
            .init(segments: [
                .text(
                    .init(
                        content:
                            "(\(state.world.name(of: npc)) should not offer that: \(refusal.reasons.joined(separator: " ")))"
                    ))
            ]))
        let attachment = session.feedbackAttachment(
            sentiment: .negative, issues: [.init(category: .incorrect, explanation: explanation)],
            desiredOutput: desired,
            context: state.annotations(talkingTo: npc).merging(["kind": "refusedOffer"]) { $1 })
        return FeedbackReport(npc: npc, attachment: attachment)
    }

    /// Files a player's report about the NPC's last reply.
    func report(expected: String?, category: LanguageModelFeedback.Issue.Category, output: (GameOutput) -> Void) {
        guard let npc = partner, let session = conversations[npc]?.session else {
            return output(.problem("Talk to someone first; a report is about what they said."))
        }
        let last = session.transcript.last { if case .response = $0 { true } else { false } }
        let attachment = session.feedbackAttachment(
            sentiment: .negative,
            issues: [
                .init(
                    category: category,
                    explanation:
                        "Reported by the player about: \(last?.description ?? "(no reply yet)"). App context — "
                        + Self.playerContext(state))
            ],
            desiredOutput: expected.map { .response(.init(segments: [.text(.init(content: $0))])) },
            context: state.annotations(talkingTo: npc).merging(["kind": "playerReport"]) { $1 })
        record(FeedbackReport(npc: npc, attachment: attachment))
        output(.narration("Thank you: report \(attachment.id) is saved with this conversation."))
    }

    func record(_ report: FeedbackReport) {
        attachments.feedback.append(report)
        attachments.new.feedback.append(report)
        onFeedback(report)
    }

    /// Keeps a turn's recording, for replays and for the next save.
    func record(_ recording: TurnRecording) {
        attachments.recordings.append(recording)
        attachments.new.recordings.append(recording)
    }

    /// The facts a developer needs to understand a refused offer, in one line.
    static func context(of refusal: RefusedOffer, in state: GameState) -> String {
        let world = state.world
        let npc = world.npcs[refusal.npc]
        let stock =
            npc?.inventory.sorted { $0.item.rawValue < $1.item.rawValue }
            .map { "\($0.quantity) × \(world.name(of: $0.item))" }.joined(separator: ", ") ?? ""
        return playerContext(state)
            + "; NPC: \(npc?.name ?? refusal.npc.rawValue) (\(npc?.gold ?? 0) gold; stock: \(stock.isEmpty ? "nothing" : stock))"
            + "; offer: \(refusal.offer.map { $0.summary(in: world) } ?? refusal.proposal) (proposed as \(refusal.proposal))"
            + "; rules broken: \(refusal.reasons.joined(separator: " | "))"
    }

    static func playerContext(_ state: GameState) -> String {
        let world = state.world
        let carried = state.player.inventory.sorted { $0.item.rawValue < $1.item.rawValue }
            .map { "\($0.quantity) × \(world.name(of: $0.item))" }.joined(separator: ", ")
        return
            "player: \(state.player.name), gold: \(state.player.gold), inventory: \(carried.isEmpty ? "nothing" : carried)"
            + ", location: \(world.name(of: state.player.location))"
    }
}
