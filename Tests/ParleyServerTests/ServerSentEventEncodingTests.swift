import Foundation
import ParleyHTTP
import ParleyServer
import Testing

/// Events encoded by the server read back the same with the project's own SSE parser.
@Suite struct ServerSentEventEncodingTests {
    @Test func encodesTheFieldsInOrder() {
        let event = ParleyServer.ServerSentEvent(event: "speech", data: "one\ntwo", id: "7", retry: .milliseconds(1500))
        #expect(event.encoded == "id: 7\nevent: speech\nretry: 1500\ndata: one\ndata: two\n\n")
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("two\nlines", "two\nlines"),
        ("crlf\r\nlines", "crlf\nlines"),
        ("lone\rcr", "lone\ncr"),
        ("trailing\n", "trailing\n"),
        ("\n\nleading", "\n\nleading"),
        ("  leading spaces", "  leading spaces"),
        (": not a comment", ": not a comment"),
        ("data: nested", "data: nested"),
        (#"{"text":"Ten gold, \"friend\"."}"#, #"{"text":"Ten gold, \"friend\"."}"#),
        ("émoji 🪙 and ünïcode", "émoji 🪙 and ünïcode"),
    ])
    func roundTripsThroughTheParser(data: String, expected: String) throws {
        let sent = ParleyServer.ServerSentEvent(event: "note", data: data, id: "a1")
        var parser = SSEParser()
        let events = parser.feed(bytes: Array(sent.encoded.utf8))
        let event = try #require(events.first)
        #expect(events.count == 1)
        #expect(event.data == expected)
        #expect(event.event == "note")
        #expect(event.id == "a1")
    }

    @Test func removesLineBreaksFromTheTypeAndID() throws {
        let sent = ParleyServer.ServerSentEvent(event: "a\nevent: b", data: "x", id: "1\r\ndata: injected\0")
        var parser = SSEParser()
        let events = parser.feed(bytes: Array(sent.encoded.utf8))
        #expect(events.count == 1)
        #expect(events.first?.event == "aevent: b")
        #expect(events.first?.id == "1data: injected")
        #expect(events.first?.data == "x")
    }

    @Test func manyEventsParseAcrossEveryChunkBoundary() throws {
        let sent = (0..<3).map { ParleyServer.ServerSentEvent(event: "n", data: "line \($0)\nmore") }
        let bytes = Array(sent.map(\.encoded).joined().utf8)
        for split in 0...bytes.count {
            var parser = SSEParser()
            let events = parser.feed(bytes: bytes[..<split]) + parser.feed(bytes: bytes[split...])
            #expect(events.map(\.data) == ["line 0\nmore", "line 1\nmore", "line 2\nmore"], "split at \(split)")
        }
    }
}
