import ParleyEngine
import Synchronization

/// Shows what the game outputs: narration as lines, NPC speech as it streams, problems and the goal.
///
/// On a terminal, while an NPC thinks, a dim line shows how long it has been ("Mira Quickcoin is thinking… 12 s",
/// redrawn every second until the NPC speaks or the turn fails), and the model server's notices (a retry, a rate
/// limit) appear above it. Piped output gets no escape codes and no ticking seconds at all; notices are lines.
/// Every text the game hands over (narration, NPC names and words, problems, which quote the player's input,
/// notices) is printed through ``TerminalText/sanitized(_:)``: the only escape codes on the screen are the
/// renderer's own.
final class GameRenderer: Sendable {
    let style: Style
    let showsSpinner: Bool

    /// The NPC being waited for, if any. The mutex also keeps the ticker's writes from interleaving with the
    /// game's output.
    private let waiting = Mutex<Waiting?>(nil)

    /// A wait being shown: for whom, since when, and the task that redraws it.
    private struct Waiting {
        var npc: String
        var since: ContinuousClock.Instant
        var ticker: Task<Void, Never>
        var id: Int
    }

    init(style: Style, showsSpinner: Bool) {
        self.style = style
        self.showsSpinner = showsSpinner
    }

    func render(_ output: GameOutput) {
        waiting.withLock { waiting in
            switch output {
            case .thinking(let npc):
                guard showsSpinner else { return }
                waiting?.ticker.cancel()
                let id = (waiting?.id ?? 0) + 1
                Terminal.write(style.npc(npc + ":") + " " + style.dim("…"))
                waiting = Waiting(npc: npc, since: .now, ticker: startTicker(id: id), id: id)
            case .notice(let text):
                guard showsSpinner, let current = waiting else {
                    return Terminal.write("(\(TerminalText.sanitized(text)))\n")
                }
                Terminal.write("\r\u{1B}[K" + style.dim("(\(text))") + "\n" + waitLine(current))
            default:
                if let current = waiting {
                    current.ticker.cancel()
                    waiting = nil
                    Terminal.write("\r\u{1B}[K")
                }
                show(output)
            }
        }
    }

    /// Shows everything but the wait.
    private func show(_ output: GameOutput) {
        switch output {
        case .narration(let text): Terminal.write(TerminalText.sanitized(text) + "\n")
        case .thinking, .notice: break
        case .speechBegan(let npc): Terminal.write(style.npc(npc + ":") + " ")
        // Each streamed piece is sanitized on its own: the mapping is per character, so an escape sequence split
        // across pieces is as harmless as a whole one.
        case .speech(let words): Terminal.write(TerminalText.sanitized(words))
        case .speechEnded: Terminal.write("\n")
        case .problem(let text): Terminal.write(style.problem(text) + "\n")
        case .goalReached(let goal):
            Terminal.write("\n" + style.goal("*** You did it: \(goal) ***") + "\n\n")
        }
    }

    /// `Mira Quickcoin is thinking… 12 s`, dim, without a line end.
    private func waitLine(_ waiting: Waiting) -> String {
        let seconds = (ContinuousClock.now - waiting.since).components.seconds
        return style.npc(waiting.npc) + style.dim(" is thinking… \(seconds) s")
    }

    /// Redraws the wait's line every second while it is the one shown.
    private func startTicker(id: Int) -> Task<Void, Never> {
        Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let self, !Task.isCancelled else { return }
                waiting.withLock { waiting in
                    guard let current = waiting, current.id == id else { return }
                    Terminal.write("\r\u{1B}[K" + waitLine(current))
                }
            }
        }
    }
}
