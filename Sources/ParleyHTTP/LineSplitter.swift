/// Splits a byte stream into UTF-8 lines, however the bytes are chunked.
///
/// Lines end at `\n` or `\r\n`; a lone `\r` is kept as part of the line. Bytes are kept until their line is
/// complete and only then decoded, so a chunk boundary inside a multi-byte character or between `\r` and `\n`
/// changes nothing. Invalid UTF-8 becomes U+FFFD.
///
/// ```swift
/// var splitter = LineSplitter()
/// splitter.append(Array("data: {\"a\"".utf8))  // []
/// splitter.append(Array(":1}\r\n\r".utf8))    // ["data: {\"a\":1}"]
/// splitter.append(Array("\n".utf8))           // [""]
/// ```
///
/// A line is buffered whole, so memory grows with the longest line.
package struct LineSplitter: Sendable {
    private var pending: [UInt8] = []

    /// Creates a splitter with nothing buffered.
    package init() {}

    /// Adds bytes and returns the lines they complete.
    ///
    /// - Parameter bytes: The next bytes of the stream.
    /// - Returns: The completed lines, without terminators, in order; often empty.
    @discardableResult
    package mutating func append(_ bytes: some Sequence<UInt8>) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                lines.append(takeLine())
            } else {
                pending.append(byte)
            }
        }
        return lines
    }

    /// Returns the last line if the stream did not end with a terminator, and empties the splitter.
    ///
    /// - Returns: The incomplete last line, or `nil` when nothing is buffered.
    package mutating func finish() -> String? {
        pending.isEmpty ? nil : takeLine()
    }

    private mutating func takeLine() -> String {
        var end = pending.endIndex
        if end > 0, pending[end - 1] == UInt8(ascii: "\r") {
            end -= 1
        }
        let line = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeAll(keepingCapacity: true)
        return line
    }
}
