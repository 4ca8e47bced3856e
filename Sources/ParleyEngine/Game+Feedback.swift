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

    /// Who or what filed a report: its `context.kind` in the documented format.
    public enum Kind: String, Sendable, CaseIterable {
        /// The game refused an offer the NPC's model made.
        case refusedOffer
        /// The player's `report` command, about the NPC's last reply.
        case playerReport
        /// A developer's report about one turn, filed from the inspector (`parley inspect`).
        case developerReport
        /// The game's own report of a turn the NPC answered with no words: an NPC is never silent, so a silent
        /// reply is a bug of its model or its content, filed with the turn.
        case emptyReply
        /// The game refused a call of one of its actions (`actions.json`) whose arguments did not fit its schema.
        case refusedAction

        /// The key of the report's `context` that holds the kind.
        public static let key = "kind"
    }

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - npc: The NPC whose conversation it is about.
    ///   - attachment: The report.
    public init(npc: NPCID, attachment: FeedbackAttachment) {
        self.npc = npc
        self.attachment = attachment
    }

    /// The kind of the report, read from its context; `nil` for a report another app made.
    public var kind: Kind? { attachment.context[Kind.key].flatMap(Kind.init(rawValue:)) }

    /// A report about one reply of an NPC's conversation: the player's `report` in the game files it about the last
    /// reply, and the inspector about the turn a developer chose, so both are the same document
    /// (`logFeedbackAttachment`'s, with the game context).
    ///
    /// - Parameters:
    ///   - kind: Who files it.
    ///   - npc: The NPC.
    ///   - transcript: The conversation up to and including the reply.
    ///   - rolledBackEntries: Entries of turns that were rolled back.
    ///   - modelID: The model that produced the reply.
    ///   - modelVersion: Its version.
    ///   - sentiment: How the reply felt.
    ///   - category: What was wrong.
    ///   - explanation: Why, in words.
    ///   - expected: The reply that was wanted, if given.
    ///   - context: The game context of the turn (player, gold, inventory, location, NPC, world).
    ///   - createdAt: When; now by default.
    /// - Returns: The report.
    public static func aboutReply(
        kind: Kind, npc: NPCID, transcript: Transcript, rolledBackEntries: [Transcript.Entry] = [], modelID: String,
        modelVersion: String, sentiment: LanguageModelFeedback.Sentiment?,
        category: LanguageModelFeedback.Issue.Category, explanation: String?, expected: String?,
        context: [String: String], createdAt: Date = Date()
    ) -> FeedbackReport {
        let attachment = FeedbackAttachment(
            createdAt: createdAt, sentiment: sentiment, issues: [.init(category: category, explanation: explanation)],
            desiredOutput: expected.map { .response(.init(segments: [.text(.init(content: $0))])) },
            transcript: transcript, rolledBackEntries: rolledBackEntries, modelID: modelID, modelVersion: modelVersion,
            context: context.merging([Kind.key: kind.rawValue]) { $1 })
        return FeedbackReport(npc: npc, attachment: attachment)
    }
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
            context: state.annotations(talkingTo: npc).merging(
                [FeedbackReport.Kind.key: FeedbackReport.Kind.refusedOffer.rawValue]) { $1 })
        return FeedbackReport(npc: npc, attachment: attachment)
    }

    /// The game's report of a turn the NPC answered with no words (`FeedbackReport.Kind.emptyReply`): the transcript
    /// up to the silent reply, and what the player said.
    func emptyReplyReport(npc: NPCID, after prompt: Prompt) -> FeedbackReport? {
        guard let session = conversations[npc]?.session else { return nil }
        let said = prompt.segments.map(\.description).joined()
        return FeedbackReport.aboutReply(
            kind: .emptyReply, npc: npc, transcript: session.transcript, rolledBackEntries: session.rolledBackEntries,
            modelID: session.model.id, modelVersion: session.model.version, sentiment: .negative,
            category: .unhelpful,
            explanation: "The NPC answered \"\(said)\" with no words. App context — " + Self.playerContext(state),
            expected: nil, context: state.annotations(talkingTo: npc))
    }

    /// Files a player's report about the NPC's last reply.
    func report(
        expected: String?, category: LanguageModelFeedback.Issue.Category, output: (GameOutput) -> Void
    ) async {
        guard let npc = partner, let session = await partnerConversation()?.session else {
            return output(.problem("Talk to someone first; a report is about what they said."))
        }
        let last = session.transcript.last { if case .response = $0 { true } else { false } }
        let report = FeedbackReport.aboutReply(
            kind: .playerReport, npc: npc, transcript: session.transcript, rolledBackEntries: session.rolledBackEntries,
            modelID: session.model.id, modelVersion: session.model.version, sentiment: .negative, category: category,
            explanation: "Reported by the player about: \(last?.description ?? "(no reply yet)"). App context — "
                + Self.playerContext(state),
            expected: expected, context: state.annotations(talkingTo: npc))
        record(report)
        output(.narration("Thank you: report \(report.attachment.id) is saved with this conversation."))
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
