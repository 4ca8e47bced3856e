import ParleyEngine

/// Shows what the game outputs: narration as lines, NPC speech as it streams, problems and the goal.
///
/// On a terminal a dim "…" shows while a slow model thinks; piped output gets no escape codes at all. Every text
/// the game hands over (narration, NPC names and words, problems, which quote the player's input) is printed
/// through ``TerminalText/sanitized(_:)``: the only escape codes on the screen are the renderer's own.
final class GameRenderer: Sendable {
    let style: Style
    let showsSpinner: Bool

    init(style: Style, showsSpinner: Bool) {
        self.style = style
        self.showsSpinner = showsSpinner
    }

    func render(_ output: GameOutput) {
        switch output {
        case .narration(let text): Terminal.write(TerminalText.sanitized(text) + "\n")
        case .thinking(let npc):
            if showsSpinner { Terminal.write(style.npc(npc + ":") + " " + style.dim("…")) }
        case .speechBegan(let npc):
            if showsSpinner { Terminal.write("\r\u{1B}[K") }
            Terminal.write(style.npc(npc + ":") + " ")
        // Each streamed piece is sanitized on its own: the mapping is per character, so an escape sequence split
        // across pieces is as harmless as a whole one.
        case .speech(let words): Terminal.write(TerminalText.sanitized(words))
        case .speechEnded: Terminal.write("\n")
        case .problem(let text):
            if showsSpinner { Terminal.write("\r\u{1B}[K") }
            Terminal.write(style.problem(text) + "\n")
        case .goalReached(let goal):
            Terminal.write("\n" + style.goal("*** You did it: \(goal) ***") + "\n\n")
        }
    }
}
