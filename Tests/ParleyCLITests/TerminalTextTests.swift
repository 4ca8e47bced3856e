import Foundation
import Testing

@testable import parley

/// `TerminalText.sanitized`: what a terminal would obey is shown instead, and nothing else changes.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        // OSC 52 (write the clipboard), ended by BEL or by ST (ESC \).
        ("\u{1B}]52;c;aGk=\u{07}", #"\u001B]52;c;aGk=\u0007"#),
        ("\u{1B}]52;c;aGk=\u{1B}\\", #"\u001B]52;c;aGk=\u001B\"#),
        // CSI: clear the screen, move the cursor, colours.
        ("a\u{1B}[2Jb", #"a\u001B[2Jb"#),
        ("\u{1B}[31mred\u{1B}[0m", #"\u001B[31mred\u001B[0m"#),
        // Other C0 controls, DEL, NUL.
        ("\u{00}\u{08}\u{0B}\u{0C}\u{7F}", #"\u0000\u0008\u000B\u000C\u007F"#),
        // C1 controls: one-character CSI and OSC, NEL.
        ("\u{9B}2J\u{9D}0;x\u{9C}\u{85}", #"\u009B2J\u009D0;x\u009C\u0085"#),
        ("\u{80}\u{9F}", #"\u0080\u009F"#),
        // Bidirectional overrides, embeddings and isolates.
        ("\u{202E}txt.exe", #"\u202Etxt.exe"#),
        (
            "\u{202A}\u{202B}\u{202C}\u{202D}\u{2066}\u{2067}\u{2068}\u{2069}",
            #"\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069"#
        ),
        // Line feed and tab stay; carriage return goes, alone or before a line feed.
        ("one\r\ntwo\tthree\n", "one\ntwo\tthree\n"),
        ("Mira: hello\rParley: your save is damaged", "Mira: helloParley: your save is damaged"),
        // Everything else is left alone.
        ("Mira Quickcoin: 25 gold × 2… ¡Olé! 你好 שלום 🙂 é", "Mira Quickcoin: 25 gold × 2… ¡Olé! 你好 שלום 🙂 é"),
        ("\u{200F}\u{A0}\u{FEFF}", "\u{200F}\u{A0}\u{FEFF}"),
        ("", ""),
    ])
    func unsafeCharactersAreShownAsEscapes(_ text: String, _ expected: String) {
        #expect(TerminalText.sanitized(text) == expected)
    }

    /// Every character from U+0000 to U+30FF and a few beyond: what comes out has nothing a terminal obeys, and
    /// a safe character comes out as itself.
    @Test func noUnsafeCharacterSurvivesAndSafeOnesAreKept() {
        let scalars = (0...0x30FF).compactMap(Unicode.Scalar.init) + ["\u{1F642}", "\u{E0001}", "\u{10FFFF}"]
        for scalar in scalars {
            let out = TerminalText.sanitized(String(scalar))
            #expect(!out.unicodeScalars.contains(where: TerminalText.isUnsafe), "U+\(String(scalar.value, radix: 16))")
            #expect(!out.unicodeScalars.contains("\r"))
            if !TerminalText.isUnsafe(scalar) { #expect(out == String(scalar)) }
        }
        // The unsafe set is exactly what the documentation says.
        let unsafe = scalars.filter(TerminalText.isUnsafe).map(\.value)
        let documented =
            Array(0x00...0x08) + Array(0x0B...0x1F) + Array(0x7F...0x9F) + Array(0x202A...0x202E)
            + Array(0x2066...0x2069)
        #expect(unsafe == documented.map(UInt32.init))
    }

    @Test func sanitizingTwiceChangesNothingMore() {
        let text = "a\u{1B}[2J\u{9B}\u{202E}b\r\n\u{07}"
        let once = TerminalText.sanitized(text)
        #expect(TerminalText.sanitized(once) == once)
    }

    /// Streamed speech is sanitized piece by piece: however the text is cut, the pieces give the whole's result,
    /// so no escape can be put back together from pieces that each looked harmless.
    @Test(arguments: [
        "Hello \u{1B}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u{07} friend \u{1B}[2J\u{1B}[H bye",
        "\u{9B}31m\u{202E}olleh\u{202C}\r\n\u{1B}\\",
    ])
    func piecesGiveTheSameTextAsTheWholeWhereverTheyAreCut(_ text: String) {
        let whole = TerminalText.sanitized(text)
        let characters = Array(text.unicodeScalars)
        for cut in 0...characters.count {
            let first = String(String.UnicodeScalarView(characters[..<cut]))
            let second = String(String.UnicodeScalarView(characters[cut...]))
            let pieces = TerminalText.sanitized(first) + TerminalText.sanitized(second)
            #expect(pieces == whole, "cut at \(cut)")
            #expect(!pieces.unicodeScalars.contains(where: TerminalText.isUnsafe))
        }
        // One character per piece, as a slow stream might send them.
        #expect(characters.map { TerminalText.sanitized(String($0)) }.joined() == whole)
    }

    /// JSON output (`--json`, exports printed to the terminal) stays a valid document with the same value.
    @Test func aSanitizedJSONDocumentParsesToTheSameValue() throws {
        let strings = ["\u{1B}]52;c;aGk=\u{07}", "\u{9B}2J", "\u{202E}abc", "tab\there", "\u{7F}", "plain"]
        let document = try JSONSerialization.data(withJSONObject: ["said": strings], options: [.sortedKeys])
        let sanitized = TerminalText.sanitized(String(decoding: document, as: UTF8.self))
        #expect(!sanitized.unicodeScalars.contains(where: TerminalText.isUnsafe))
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(sanitized.utf8)) as? [String: [String]])
        #expect(parsed["said"] == strings)
    }

    /// The game's own colours still work, around the sanitized name; with colour off only the name is left.
    @Test func stylesKeepTheirEscapesAndSanitizeWhatTheyStyle() {
        #expect(Style(enabled: true).npc("Mira\u{1B}[2J:") == "\u{1B}[1;36mMira\\u001B[2J:\u{1B}[0m")
        #expect(Style(enabled: false).problem("no\u{9B}31m") == #"no\u009B31m"#)
        #expect(Style(enabled: true).goal("Done") == "\u{1B}[1;32mDone\u{1B}[0m")
    }
}
