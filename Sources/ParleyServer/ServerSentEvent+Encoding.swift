import Foundation
import ParleyBasics

extension ServerSentEvent {
    /// The event in the `text/event-stream` format, ending with the blank line that dispatches it.
    ///
    /// The fields come in the order `id`, `event`, `retry`, `data`. ``data`` is split at every line break
    /// (`\r\n`, `\n` or a lone `\r`, the three a reader recognizes) into one `data:` line each, so a reader
    /// gets the same text back with its line breaks as `\n`; empty data is one empty `data:` line, so the
    /// event is still dispatched. A value is written after `: ` so that leading spaces survive. Line breaks in
    /// ``event`` and ``id`` would start new fields, so they are removed, as is NUL from ``id`` (a reader
    /// ignores an `id` with NUL). ``retry`` is written in whole milliseconds, rounded up.
    ///
    /// ```swift
    /// ServerSentEvent(event: "note", data: "one\ntwo").encoded   // "event: note\ndata: one\ndata: two\n\n"
    /// ```
    public var encoded: String {
        var text = ""
        if let id {
            text += "id: \(Self.singleLine(id).replacingOccurrences(of: "\0", with: ""))\n"
        }
        if let event {
            text += "event: \(Self.singleLine(event))\n"
        }
        if let retry {
            text += "retry: \(max(0, retry.milliseconds(rounded: .up)))\n"
        }
        for line in Self.lines(of: data) {
            text += "data: \(line)\n"
        }
        return text + "\n"
    }

    /// ``encoded`` as UTF-8 bytes.
    public var encodedData: Data { Data(encoded.utf8) }

    /// The lines of a text, split at `\r\n`, `\n` and a lone `\r`; one empty line for an empty text.
    private static func lines(of text: String) -> [String] {
        let scalars = text.unicodeScalars
        var lines: [String] = []
        var start = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard scalar == "\n" || scalar == "\r" else {
                index = scalars.index(after: index)
                continue
            }
            lines.append(String(scalars[start..<index]))
            index = scalars.index(after: index)
            if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" {
                index = scalars.index(after: index)
            }
            start = index
        }
        lines.append(String(scalars[start...]))
        return lines
    }

    /// The text with its line breaks removed.
    private static func singleLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }))
    }
}
