import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads lines from the player: with editing and history on a terminal, plain lines from a pipe.
///
/// On a terminal it puts the terminal in raw mode while a line is typed and supports ← → Home End (and Ctrl-A,
/// Ctrl-E), Backspace and Delete, ↑ ↓ through earlier lines, Ctrl-U and Ctrl-K to cut, Ctrl-C to drop the line
/// and Ctrl-D on an empty line to end. Anything else (a pipe, a file, a terminal it cannot control) is read with
/// `readLine()`, with no prompt and no escape codes.
final class LineEditor {
    private var history: [String] = []
    private let interactive: Bool

    init(interactive: Bool) {
        self.interactive = interactive
    }

    /// The next line, or `nil` at the end of input.
    func readLine(prompt: String) -> String? {
        guard interactive, var original = rawMode() else { return Swift.readLine(strippingNewline: true) }
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &original) }
        var line: [Character] = []
        var cursor = 0
        var historyIndex = history.count
        var draft: [Character] = []

        // The prompt holds an NPC's name and the line what the player typed or pasted: both are shown sanitized.
        let shownPrompt = TerminalText.sanitized(prompt)
        func redraw() {
            let beforeCursor = TerminalText.sanitized(String(line[..<cursor]))
            let afterCursor = TerminalText.sanitized(String(line[cursor...]))
            Terminal.write("\r\u{1B}[K" + shownPrompt + beforeCursor + afterCursor)
            if !afterCursor.isEmpty { Terminal.write("\u{1B}[\(afterCursor.count)D") }
        }
        redraw()
        while let byte = readByte() {
            switch byte {
            case 13, 10:  // Enter
                Terminal.write("\r\n")
                let text = String(line)
                if !text.trimmingCharacters(in: .whitespaces).isEmpty, history.last != text { history.append(text) }
                return text
            case 4:  // Ctrl-D
                if line.isEmpty {
                    Terminal.write("\r\n")
                    return nil
                }
                if cursor < line.count { line.remove(at: cursor) }
            case 3:  // Ctrl-C: drop the line
                Terminal.write("^C\r\n")
                line = []
                cursor = 0
            case 127, 8:  // Backspace
                if cursor > 0 {
                    line.remove(at: cursor - 1)
                    cursor -= 1
                }
            case 1: cursor = 0  // Ctrl-A
            case 5: cursor = line.count  // Ctrl-E
            case 11: line.removeSubrange(cursor...)  // Ctrl-K
            case 21:  // Ctrl-U
                line.removeSubrange(..<cursor)
                cursor = 0
            case 27:  // Escape sequences: arrows, Home, End, Delete
                guard readByte() == UInt8(ascii: "["), let code = readByte() else { break }
                switch code {
                case UInt8(ascii: "D"): cursor = max(0, cursor - 1)
                case UInt8(ascii: "C"): cursor = min(line.count, cursor + 1)
                case UInt8(ascii: "H"): cursor = 0
                case UInt8(ascii: "F"): cursor = line.count
                case UInt8(ascii: "A"), UInt8(ascii: "B"):
                    if historyIndex == history.count { draft = line }
                    historyIndex =
                        code == UInt8(ascii: "A") ? max(0, historyIndex - 1) : min(history.count, historyIndex + 1)
                    line = historyIndex < history.count ? Array(history[historyIndex]) : draft
                    cursor = line.count
                case UInt8(ascii: "3"):
                    if readByte() == UInt8(ascii: "~"), cursor < line.count { line.remove(at: cursor) }
                default: break
                }
            default:
                if byte >= 32 {
                    // Gather the rest of a multi-byte UTF-8 character.
                    var bytes = [byte]
                    let extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0
                    for _ in 0..<extra { if let next = readByte() { bytes.append(next) } }
                    for character in String(decoding: bytes, as: UTF8.self) {
                        line.insert(character, at: cursor)
                        cursor += 1
                    }
                }
            }
            redraw()
        }
        Terminal.write("\r\n")
        return line.isEmpty ? nil : String(line)
    }

    /// Switches the terminal to raw input, returning the settings to restore; `nil` when it cannot.
    private func rawMode() -> termios? {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
        return original
    }

    private func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }
}
