/// Makes text from players, models, content packs and saves safe to print on a terminal.
///
/// A terminal obeys control characters in what it prints: `ESC ] 52 ; c ; … BEL` writes the clipboard,
/// `ESC [ 2 J` clears the screen, a carriage return lets a line overwrite the one before it, and U+202E
/// reverses the text after it. Text that Parley did not write itself (an NPC's words, the player's input, a
/// save's labels, a content pack's names and file names) is passed through ``sanitized(_:)`` before it is
/// printed, so that it is shown, never obeyed.
enum TerminalText {
    /// The text with every character a terminal would obey made visible, or dropped.
    ///
    /// Each of these is replaced by a visible escape, `\u` and four uppercase hex digits (`\u001B` for ESC):
    /// - the C0 controls U+0000–U+001F except line feed (`\n`) and tab (`\t`), which are kept as they are, and
    ///   carriage return, which is dropped (see below);
    /// - DEL, U+007F;
    /// - the C1 controls U+0080–U+009F (U+009B is a one-character CSI on some terminals);
    /// - the bidirectional embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, which reorder the
    ///   text that follows them.
    ///
    /// An escape sequence's introducer is replaced, so the rest of the sequence (`]52;c;…`, `[2J`) is printed as
    /// the plain characters it is: nothing is obeyed. A carriage return (U+000D) is dropped, so `\r\n` line ends
    /// print as `\n` and a lone `\r` cannot send the cursor back over what was printed.
    ///
    /// The mapping looks at one character at a time and at nothing around it, so it can be applied to the pieces
    /// of a stream separately: no two sanitized pieces can join into a sequence, and the pieces give the same text
    /// as the whole. It leaves every other character alone (letters of every script, emoji, `…`, `×`), and it is
    /// idempotent: the visible escapes are plain text.
    ///
    /// The visible escapes are also JSON's escapes, and every character replaced can occur in a JSON document only
    /// inside a string (JSON's own whitespace is space, tab, line feed and carriage return), so a JSON document
    /// stays a valid document with the same value after sanitizing (a carriage return between its tokens aside,
    /// which is dropped and so changes nothing).
    ///
    /// ```swift
    /// TerminalText.sanitized("hi\u{1B}]52;c;aGk=\u{07}")   // "hi\\u001B]52;c;aGk=\\u0007"
    /// TerminalText.sanitized("line one\r\nline two\tend")  // "line one\nline two\tend"
    /// ```
    ///
    /// - Parameter text: Text to print.
    /// - Returns: The text, safe to print.
    static func sanitized(_ text: String) -> String {
        // Most text has nothing to change: return it as it is, without copying.
        guard text.unicodeScalars.contains(where: { isUnsafe($0) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\r" { continue }
            if isUnsafe(scalar) {
                result.append(contentsOf: visibleEscape(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether a terminal could obey the character: a control (but line feed or tab) or a bidirectional control.
    ///
    /// - Parameter scalar: A character of the text.
    /// - Returns: `true` when ``sanitized(_:)`` replaces or drops it.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `\u001B` for ESC: `\u` and the character's code in four uppercase hex digits.
    private static func visibleEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
