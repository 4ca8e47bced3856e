import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyJSON
import Synchronization

/// Runs conversation test plans against a model and reports each failed expectation.
public struct ConversationTestRunner: Sendable {
    /// How one step went wrong.
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        /// The step's number, from 1.
        public var step: Int
        /// What the player typed.
        public var input: String
        /// What was expected.
        public var expected: String
        /// What happened.
        public var actual: String
        /// `step 3 "would you take 20?": expected …; got …`.
        public var description: String { "step \(step) \"\(input)\": expected \(expected); got \(actual)" }
    }

    /// One plan's result.
    public struct Result: Sendable, Equatable {
        /// The plan.
        public var plan: ConversationTest
        /// Every failed expectation; empty when the plan passed.
        public var failures: [Failure]
        /// What the NPCs said at each step, for re-recording.
        public var speech: [String]
        /// Whether the plan passed.
        public var passed: Bool { failures.isEmpty }
    }

    /// The content pack the plans run in.
    public var pack: ContentPack
    /// Makes each NPC's model.
    public var models: Game.ModelProvider
    /// Whether wording is checked (only the scripted model is deterministic enough).
    public var checksWording: Bool
    /// Whether `says` patterns are checked, also when `checksWording` is `false`: for grounded voicing, whose voiced
    /// lines must keep the planned line's facts (a plan's `says` should name facts, not wording).
    public var checksSays: Bool

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - pack: The content pack.
    ///   - models: Makes each NPC's model.
    ///   - checksWording: Whether `says` and `saysExactly` are checked.
    ///   - checksSays: Whether `says` is checked whatever `checksWording` says (`false` by default).
    public init(
        pack: ContentPack, models: @escaping Game.ModelProvider, checksWording: Bool, checksSays: Bool = false
    ) {
        self.pack = pack
        self.models = models
        self.checksWording = checksWording
        self.checksSays = checksSays
    }

    /// Runs one plan in a fresh game.
    ///
    /// - Parameter plan: The plan.
    /// - Returns: Its failures and what was said.
    public func run(_ plan: ConversationTest) async -> Result {
        let game = Game(state: plan.startingState(in: pack), models: models)
        // The game's answers to its actions are the step's (`answers`); an action without one goes unanswered.
        let answers = StepAnswers()
        game.onAction { call in answers.current.withLock { $0[call.action] } }
        var failures: [Failure] = []
        var speech: [String] = []
        for (index, step) in plan.steps.enumerated() {
            let recordingsBefore = await game.recordings.count
            let refusedBefore = await game.refusedOffers.count
            let feedbackBefore = await game.feedback.count
            let heard = Heard()
            answers.current.withLock { $0 = step.answers }
            await game.perform(step.input, output: heard.record)
            let said = heard.speech
            speech.append(said)
            func fail(_ expected: String, _ actual: String) {
                failures.append(Failure(step: index + 1, input: step.input, expected: expected, actual: actual))
            }
            if checksWording || checksSays, let pattern = step.says,
                said.range(of: pattern, options: [.regularExpression, .caseInsensitive]) == nil
            {
                fail("words matching /\(pattern)/", said.isEmpty ? "nothing said" : "\"\(said)\"")
            }
            if checksWording, let exact = step.saysExactly, said != exact {
                fail("\"\(exact)\"", said.isEmpty ? "nothing said" : "\"\(said)\"")
            }
            let recordings = await game.recordings.dropFirst(recordingsBefore)
            let called = recordings.flatMap { $0.toolCalls.map { String($0.prefix { $0 != " " }) } }
            for tool in step.calls where !called.contains(tool) {
                fail(
                    "a call of \(tool)", called.isEmpty ? "no tool calls" : "calls of \(called.joined(separator: ", "))"
                )
            }
            let pending = await game.pendingOffers.values.map(\.summary).sorted()
            if let offer = step.offer {
                if offer.isEmpty, !pending.isEmpty {
                    fail("no pending offer", pending.joined(separator: "; "))
                } else if !offer.isEmpty, !pending.contains(where: { $0.contains(offer) }) {
                    fail(
                        "an offer containing \"\(offer)\"",
                        pending.isEmpty ? "no offer" : pending.joined(separator: "; "))
                }
            }
            let state = await game.state
            let npc = await game.partner
            for condition in step.state where !condition.holds(in: ConditionContext(state: state, npc: npc)) {
                fail("\(condition) to hold", "it does not (\(Self.describe(state)))")
            }
            if let refused = step.refused {
                let count = await game.refusedOffers.count - refusedBefore
                if count != refused { fail("\(refused) refused offers", "\(count)") }
            }
            if let feedback = step.feedback {
                let count = await game.feedback.count - feedbackBefore
                if count != feedback { fail("\(feedback) feedback reports", "\(count)") }
            }
            let problems = heard.problems
            if !problems.isEmpty { fail("no problem", problems.joined(separator: "; ")) }
        }
        return Result(plan: plan, failures: failures, speech: speech)
    }

    /// The plan with every step's `saysExactly` set to what was said, for `parley test --record`.
    ///
    /// - Parameter result: A run's result.
    /// - Returns: The plan's JSON, re-recorded.
    public static func rerecorded(_ result: Result) -> JSONValue {
        guard case .object(var root) = result.plan.source, var steps = root["steps"]?.arrayValue else {
            return result.plan.source
        }
        for (index, said) in result.speech.enumerated() where index < steps.count {
            guard case .object(var step) = steps[index], !said.isEmpty else { continue }
            step["saysExactly"] = .string(said)
            steps[index] = .object(step)
        }
        root["steps"] = .array(steps)
        return .object(root)
    }

    static func describe(_ state: GameState) -> String {
        let carried = state.player.inventory.sorted { $0.item.rawValue < $1.item.rawValue }
            .map { "\($0.quantity) \($0.item.rawValue)" }.joined(separator: ", ")
        return
            "gold \(state.player.gold), carrying \(carried.isEmpty ? "nothing" : carried), at \(state.player.location)"
            + (state.story.isEmpty ? "" : "; \(state.story.description)")
    }
}

/// The game's answers to its actions during the step that runs now, for the action handler of a plan's game.
private final class StepAnswers: Sendable {
    let current = Mutex<[GameActionID: GameActionAnswer]>([:])
}
