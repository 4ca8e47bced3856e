import ParleyEngine
import Synchronization

/// Collects what the game showed during a line: what NPCs said and the problems it reported. Shared by the
/// runners of test plans (`ConversationTestRunner`) and evaluation corpora (`EvalRunner`).
final class Heard: Sendable {
    /// What was shown, in order; the mutex makes the class Sendable, as `perform` takes a `@Sendable` closure.
    private let outputs = Mutex<[GameOutput]>([])
    /// Keeps one piece of output.
    func record(_ output: GameOutput) { outputs.withLock { $0.append(output) } }
    /// Everything NPCs said, lines joined by newlines.
    var speech: String {
        var lines: [String] = []
        for output in outputs.withLock({ $0 }) {
            switch output {
            case .speechBegan: lines.append("")
            case .speech(let words): if lines.isEmpty { lines.append(words) } else { lines[lines.count - 1] += words }
            default: break
            }
        }
        return lines.joined(separator: "\n")
    }
    /// The narration the game showed (results, descriptions), in order.
    var narration: [String] {
        outputs.withLock { $0 }.compactMap { if case .narration(let text) = $0 { text } else { nil } }
    }
    /// The problems the game reported (a failed turn, an unknown command...).
    var problems: [String] {
        outputs.withLock { $0 }.compactMap { if case .problem(let text) = $0 { text } else { nil } }
    }
}
