import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the terminal can do, and writing to it without buffering.
enum Terminal {
    /// Whether standard input is a terminal (interactive play) rather than a pipe or a file.
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Whether standard output is a terminal: only then does Parley show prompts, a spinner and colour.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether colour is allowed: on a terminal, unless `NO_COLOR` is set (https://no-color.org).
    static func colorEnabled(environment: [String: String]) -> Bool {
        outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Writes text to standard output at once.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes text to standard error at once.
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// ANSI styles, or nothing when colour is off.
///
/// The text being styled is sanitized (``TerminalText/sanitized(_:)``) whether colour is on or off: a name or a
/// message from a content pack, a model or a save cannot carry escape codes of its own, so the only ones printed
/// are the style's.
struct Style: Sendable {
    let enabled: Bool

    func apply(_ code: String, _ text: String) -> String {
        let text = TerminalText.sanitized(text)
        return enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
    func npc(_ text: String) -> String { apply("1;36", text) }
    func dim(_ text: String) -> String { apply("2", text) }
    func problem(_ text: String) -> String { apply("33", text) }
    func goal(_ text: String) -> String { apply("1;32", text) }
}
