import Foundation
import GameWorld
import LanguageModels

// The game's own actions (`actions.json`): the handler that performs them, and the reports of refused calls. The
// calls themselves are tools (`GameActionTool.swift`); what an NPC learns from one is its tool output, in its
// transcript, so nothing about actions lives outside the conversation and the save.

extension Game {
    /// Sets what performs the actions the pack declares (`actions.json`) when an NPC takes one; `nil` for nothing.
    ///
    /// Each call reaches the handler with arguments that fit the action's schema (a call that does not fit is refused
    /// before, and reported). For an action that awaits its answer, the NPC's turn waits until the handler returns, for
    /// at most the action's `timeoutSeconds`; what it returns is the tool's output the NPC's model reads, and a
    /// dialogue rule's reply can say it (`{result}`, `{result.NAME}`). `nil`, or no answer in time, leaves the NPC
    /// with "the game did not answer". Without a handler, awaited actions go unanswered at once.
    ///
    /// ```swift
    /// game.onAction { call in
    ///     switch call.action {
    ///     case "openGate":
    ///         let gate = call.arguments["gate"]?.stringValue ?? "north"
    ///         return await scene.open(gate) ? .output(["opened": true, "gate": .string(gate)]) : .error("It is jammed.")
    ///     default:
    ///         return nil
    ///     }
    /// }
    /// ```
    ///
    /// The handler runs on a task of its own, never on the game's actor, and can take its time without holding a
    /// thread: other games go on meanwhile. It may be set at any time; a turn that is running uses the handler set
    /// when its action is called.
    ///
    /// - Parameter handler: Performs an action and returns the game's answer.
    public nonisolated func onAction(_ handler: GameActionHandler?) {
        actionHandling.handler = handler
    }

    /// Calls of the game's actions refused because their arguments did not fit the action's schema, oldest first.
    public var refusedActions: [RefusedAction] { shared.read(\.refusedActions) }

    /// The feedback report about a refused call of one of the game's actions: the transcript with the call and the
    /// output that told the model why, and the game context. `nil` when the NPC has no session.
    func actionRefusalReport(_ refusal: RefusedAction, npc: NPCID) -> FeedbackReport? {
        guard let session = conversations[npc]?.session else { return nil }
        let state = self.state
        let explanation =
            "Unexpected call of the game's action \(refusal.action). App context — " + Self.playerContext(state)
            + "; NPC: \(state.world.name(of: npc)); call: \(refusal.action) \(refusal.arguments)"
            + "; broken: \(refusal.reasons.joined(separator: " | "))"
        let desired = Transcript.Entry.response(
            .init(segments: [
                .text(
                    .init(
                        content:
                            "(\(state.world.name(of: npc)) should call \(refusal.action) with arguments that fit it: "
                            + "\(refusal.reasons.joined(separator: " ")))"))
            ]))
        let attachment = session.feedbackAttachment(
            sentiment: .negative, issues: [.init(category: .incorrect, explanation: explanation)],
            desiredOutput: desired,
            context: state.annotations(talkingTo: npc).merging(
                [FeedbackReport.Kind.key: FeedbackReport.Kind.refusedAction.rawValue]) { $1 })
        return FeedbackReport(npc: npc, attachment: attachment)
    }
}
