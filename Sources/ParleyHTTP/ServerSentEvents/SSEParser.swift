/// An incremental parser of server-sent events, fed line by line or with bytes chunked any way.
///
/// Follows the WHATWG "event stream interpretation": `field: value` lines, one optional space after the colon
/// removed (`data:x` and `data: x` are the same); lines starting with `:` are comments (keep-alive pings) and
/// are ignored; several `data:` lines join with `\n`; a blank line dispatches the event; unknown fields are
/// ignored; a block without `data:` dispatches nothing. Two deliberate differences: ``finish()`` delivers a
/// last event that lacks its closing blank line instead of dropping it, since a server that closes right after
/// its last `data:` line meant to send it; and lines end at `\n` or `\r\n` only, not at a lone `\r`, which the
/// standard allows but no server this package targets sends.
///
/// ```swift
/// var parser = SSEParser()
/// for event in parser.feed(bytes: chunk) { handle(event) }
/// if let last = parser.finish() { handle(last) }
/// ```
public struct SSEParser: Sendable {
    private var splitter = LineSplitter()
    private var dataLines: [String] = []
    private var eventType: String?
    private var lastEventID: String?
    private var retry: Int?
    private var isFirstLine = true

    /// Creates a parser at the start of a stream.
    public init() {}

    /// Parses one line, without its terminator.
    ///
    /// - Parameter line: The line; don't mix with ``feed(bytes:)`` in the middle of a line.
    /// - Returns: The event this line completes (only a blank line completes one), or `nil`.
    public mutating func feed(line: String) -> ServerSentEvent? {
        var line = Substring(line)
        if isFirstLine {
            isFirstLine = false
            // The stream may start with a byte order mark, which is not part of the first field name.
            if line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
        }
        if line.isEmpty { return dispatch() }
        if line.hasPrefix(":") { return nil }

        let name: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            name = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            name = line
            value = ""
        }
        switch name {
        case "data": dataLines.append(String(value))
        case "event": eventType = String(value)
        case "id" where !value.contains("\0"): lastEventID = String(value)
        case "retry" where !value.isEmpty && value.utf8.allSatisfy({ (0x30...0x39).contains($0) }):
            retry = Int(value)
        default: break
        }
        return nil
    }

    /// Parses the next bytes of the stream; lines may be split anywhere across calls.
    ///
    /// - Parameter bytes: The next bytes.
    /// - Returns: The events these bytes complete, in order.
    public mutating func feed(bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        splitter.append(bytes).compactMap { feed(line: $0) }
    }

    /// Ends the stream: parses a last unterminated line and delivers a pending event.
    ///
    /// - Returns: The last event if it lacked its closing blank line, or `nil`.
    public mutating func finish() -> ServerSentEvent? {
        if let line = splitter.finish(), let event = feed(line: line) {
            return event
        }
        return dispatch()
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            dataLines.removeAll()
            eventType = nil
        }
        guard !dataLines.isEmpty else { return nil }
        defer { retry = nil }
        let type = eventType.flatMap { $0.isEmpty ? nil : $0 }
        return ServerSentEvent(event: type, data: dataLines.joined(separator: "\n"), id: lastEventID, retry: retry)
    }
}
