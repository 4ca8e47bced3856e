import Foundation
import GameWorld
import LanguageModels
import NPCContract
import ParleyJSON

/// One of the game's actions (`actions.json`) as a tool of an NPC's model: its name is the action's id, its parameters
/// the action's schema. A call's arguments are checked against the schema before the game sees them: a call that does
/// not fit is refused (the output says why) and reported. A call that fits goes to the game's action handler, and the
/// NPC waits for the answer when the action awaits one, for at most its time limit (see `GameActionHandler`). In the
/// turn of a spoken line heard below its acting bar, no call goes to the game: it is refused
/// (`RefusalReason.unclearSpeech`).
struct GameActionTool: Tool {
    let action: GameAction
    let box: NPCToolbox
    /// The action's schema, read once.
    let schema: GenerationSchema

    init(action: GameAction, box: NPCToolbox) {
        self.action = action
        self.box = box
        // The loader lets only object schemas through; a world built in code with another gets any arguments.
        schema = (try? GenerationSchema(jsonSchema: action.arguments)) ?? GeneratedContent.generationSchema
    }

    var name: String { action.id.rawValue }
    var description: String { action.description }
    var parameters: GenerationSchema { schema }

    func call(arguments: GeneratedContent) async throws -> GameActionResult {
        // A line heard too unsurely makes no action: the game never sees the call.
        if let reason = box.unclearSpeech {
            var refusal = RefusedAction(
                npc: box.npc, action: action.id, arguments: arguments.jsonString, reasons: [reason.message])
            refusal.unclearSpeech = true
            box.state.update { $0.refusedActions.append(refusal) }
            return .refused(because: [reason])
        }
        let violations = schema.validate(arguments)
        guard violations.isEmpty else {
            let reasons = violations.map { "The arguments do not fit \(name): \($0.path): \($0.problem)." }
            box.state.update {
                $0.refusedActions.append(
                    RefusedAction(npc: box.npc, action: action.id, arguments: arguments.jsonString, reasons: reasons))
            }
            return .refused(reasons + ["Call \(name) again with arguments that fit its parameters, or do without it."])
        }
        let call = GameActionCall(
            callID: Self.newCallID(), npc: box.npc, action: action.id, arguments: arguments.jsonValue,
            awaitsAnswer: action.awaitsAnswer, timeout: action.timeout)
        guard let handler = box.actionHandling?.handler else {
            return action.awaitsAnswer ? .unanswered(after: nil) : .told
        }
        let ending = await ActionWait.answer(to: call, from: handler)
        guard action.awaitsAnswer else { return .told }
        switch ending {
        case .answered(.output(let output)): return .answered(GeneratedContent(jsonValue: output))
        case .answered(.error(let error)): return .failed(error)
        case .noAnswer: return .unanswered(after: nil)
        case .timedOut: return .unanswered(after: action.timeoutSeconds)
        }
    }

    /// A new call id: 16 hexadecimal digits, random, so that no client can guess another's call.
    static func newCallID() -> String {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
