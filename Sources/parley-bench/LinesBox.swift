import ParleyEngine
import Synchronization

/// Collects what a game shows, from any task.
final class LinesBox: Sendable {
    private let lines = Mutex<[String]>([])

    /// Keeps one piece of output, as its description (`narration("Loaded slot1: …")`).
    @Sendable func append(_ output: GameOutput) {
        let text = String(describing: output)
        lines.withLock { $0.append(text) }
    }

    /// Everything kept, one piece per line.
    var text: String { lines.withLock { $0.joined(separator: "\n") } }
}
