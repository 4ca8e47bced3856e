import ParleyHTTP
import Testing

@Suite struct LineSplitterTests {
    /// LF and CRLF ends, an empty line, 2-, 3- and 4-byte characters, a lone CR, and no final terminator.
    static let text = "alpha\r\nbé\n\n🙂 smile\r\n\r\nγράμμα\rnot-a-break\n€ last"
    static let lines = ["alpha", "bé", "", "🙂 smile", "", "γράμμα\rnot-a-break", "€ last"]

    @Test(arguments: [
        ("", [String]()), ("\n", [""]), ("\r\n", [""]), ("a", ["a"]), ("a\n", ["a"]), ("a\r\n\r\n", ["a", ""]),
        ("a\r", ["a"]), ("\r\r\n", ["\r"]), ("x\ny", ["x", "y"]),
    ])
    func splits(text: String, lines: [String]) {
        #expect(Self.split([Array(text.utf8)]) == lines)
    }

    @Test func everyTwoWaySplit() {
        let bytes = Array(Self.text.utf8)
        for split in 0...bytes.count {
            #expect(Self.split([Array(bytes[..<split]), Array(bytes[split...])]) == Self.lines, "split at \(split)")
        }
    }

    @Test func everyThreeWaySplit() {
        let bytes = Array(Self.text.utf8)
        for first in 0...bytes.count {
            for second in first...bytes.count {
                let chunks = [Array(bytes[..<first]), Array(bytes[first..<second]), Array(bytes[second...])]
                #expect(Self.split(chunks) == Self.lines, "split at \(first) and \(second)")
            }
        }
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        #expect(Self.split([[0x61, 0xFF, 0x62, 0x0A]]) == ["a\u{FFFD}b"])
    }

    static func split(_ chunks: [[UInt8]]) -> [String] {
        var splitter = LineSplitter()
        var lines = chunks.flatMap { splitter.append($0) }
        if let last = splitter.finish() { lines.append(last) }
        return lines
    }
}
