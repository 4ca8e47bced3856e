import Foundation
import ParleyHTTP
import Testing

@Suite struct SSEParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var stream: String
        var events: [ServerSentEvent]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "data with a space", stream: "data: hello\n\n", events: [ServerSentEvent(data: "hello")]),
        Case(name: "data without a space", stream: "data:hello\n\n", events: [ServerSentEvent(data: "hello")]),
        Case(name: "only one space is removed", stream: "data:  two\n\n", events: [ServerSentEvent(data: " two")]),
        Case(name: "multi-line data", stream: "data: a\ndata: b\ndata:\n\n", events: [ServerSentEvent(data: "a\nb\n")]),
        Case(name: "comments are pings", stream: ": ping\n\n:\n\ndata: x\n\n", events: [ServerSentEvent(data: "x")]),
        Case(
            name: "comment inside an event", stream: "data: a\n: ping\ndata: b\n\n",
            events: [ServerSentEvent(data: "a\nb")]),
        Case(
            name: "event, id and retry", stream: "event: delta\nid: 7\nretry: 1500\ndata: {}\n\n",
            events: [ServerSentEvent(event: "delta", data: "{}", id: "7", retry: 1500)]),
        Case(
            name: "id persists, event and retry do not",
            stream: "event: a\nid: 1\nretry: 10\ndata: x\n\ndata: y\n\n",
            events: [
                ServerSentEvent(event: "a", data: "x", id: "1", retry: 10), ServerSentEvent(data: "y", id: "1"),
            ]),
        Case(
            name: "invalid retry is ignored", stream: "retry: soon\ndata: x\n\n", events: [ServerSentEvent(data: "x")]),
        Case(name: "unknown fields are ignored", stream: "foo: bar\ndata: x\n\n", events: [ServerSentEvent(data: "x")]),
        Case(name: "field without colon", stream: "data\n\n", events: [ServerSentEvent(data: "")]),
        Case(name: "blocks without data dispatch nothing", stream: "event: x\n\n\n\n", events: []),
        Case(name: "CRLF line ends", stream: "data: a\r\ndata: b\r\n\r\n", events: [ServerSentEvent(data: "a\nb")]),
        Case(name: "byte order mark", stream: "\u{FEFF}data: x\n\n", events: [ServerSentEvent(data: "x")]),
        Case(
            name: "last event without blank line", stream: "data: a\n\ndata: last",
            events: [
                ServerSentEvent(data: "a"), ServerSentEvent(data: "last"),
            ]),
        Case(
            name: "last event without any terminator", stream: "data: last\n", events: [ServerSentEvent(data: "last")]),
        Case(name: "colon in the value", stream: "data: {\"a\":1}\n\n", events: [ServerSentEvent(data: "{\"a\":1}")]),
        Case(name: "done sentinel is data", stream: "data: [DONE]\n\n", events: [ServerSentEvent(data: "[DONE]")]),
    ]

    @Test(arguments: cases)
    func parsesWholeStream(_ testCase: Case) {
        #expect(Self.parse([Array(testCase.stream.utf8)]) == testCase.events)
    }

    @Test(arguments: cases)
    func parsesOneByteAtATime(_ testCase: Case) {
        #expect(Self.parse(Array(testCase.stream.utf8).map { [$0] }) == testCase.events)
    }

    @Test func recordedLlamaServerStreamAtEveryChunkBoundary() {
        let bytes = Array(RecordedStreams.llamaServerChat.utf8)
        let expected = RecordedStreams.llamaServerChatEvents
        #expect(expected.count == 5)
        #expect(expected.last?.data == "[DONE]")
        for split in 0...bytes.count {
            let events = Self.parse([Array(bytes[..<split]), Array(bytes[split...])])
            #expect(events == expected, "split at byte \(split)")
        }
    }

    @Test func recordedLlamaServerStreamWithCRLFAtEveryChunkBoundary() {
        let bytes = Array(RecordedStreams.llamaServerChat.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        for split in 0...bytes.count {
            let events = Self.parse([Array(bytes[..<split]), Array(bytes[split...])])
            #expect(events == RecordedStreams.llamaServerChatEvents, "split at byte \(split)")
        }
    }

    @Test func feedingLinesMatchesFeedingBytes() {
        var parser = SSEParser()
        var events = RecordedStreams.llamaServerChat.split(separator: "\n", omittingEmptySubsequences: false)
            .compactMap { parser.feed(line: String($0)) }
        if let last = parser.finish() { events.append(last) }
        #expect(events == RecordedStreams.llamaServerChatEvents)
    }

    @Test func streamAdapterParsesAnAsyncSequenceOfLines() async throws {
        let lines = AsyncStream<String> { continuation in
            for line in ["data: one", "", ": ping", "event: end", "data: two", "data: three"] {
                continuation.yield(line)
            }
            continuation.finish()
        }

        var events: [ServerSentEvent] = []
        for try await event in ServerSentEventStream(lines) { events.append(event) }

        #expect(events == [ServerSentEvent(data: "one"), ServerSentEvent(event: "end", data: "two\nthree")])
    }

    @Test func streamAdapterPassesErrorsThrough() async throws {
        struct Broken: Error {}
        let lines = AsyncThrowingStream<String, any Error> { continuation in
            continuation.yield("data: one")
            continuation.yield("")
            continuation.finish(throwing: Broken())
        }

        var events: [ServerSentEvent] = []
        await #expect(throws: Broken.self) {
            for try await event in ServerSentEventStream(lines) { events.append(event) }
        }
        #expect(events == [ServerSentEvent(data: "one")])
    }

    static func parse(_ chunks: [[UInt8]]) -> [ServerSentEvent] {
        var parser = SSEParser()
        var events = chunks.flatMap { parser.feed(bytes: $0) }
        if let last = parser.finish() { events.append(last) }
        return events
    }
}
