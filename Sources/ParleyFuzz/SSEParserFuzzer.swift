import Foundation
import ParleyHTTP

/// Fuzzes the server-sent-events parser with seeded mutations of event streams, fed whole and cut into random
/// chunks (down to single bytes, splitting lines, `\r\n` pairs and UTF-8 sequences).
///
/// The parser never fails: every byte string is an event stream. What it must do is give the same events however
/// the bytes are chunked, and never crash. Streams are llama-server chat completions (text, tool-call deltas,
/// comments, usage) and a stream using every field (`event`, `id`, `retry`, multi-line `data`, a byte order mark).
///
/// ```swift
/// let summary = SSEParserFuzzer.run(iterations: 20_000, seed: 1)
/// ```
public enum SSEParserFuzzer {
    /// The words inserted: field names, separators, the end marker.
    static let words = [
        "data: ", "data:", "event: ", "id: ", "retry: ", ": ping", "\n\n", "\r\n", "\r\n\r\n", "\n", "[DONE]",
        "\u{FEFF}", #"{"choices":[{"delta":{"content":"x"}}]}"#, "data: [DONE]\n\n",
    ]

    /// The streams mutated.
    static var streams: [[UInt8]] {
        let fields =
            "\u{FEFF}event: greeting\nid: 7\nretry: 1500\ndata: first line\ndata: second line\n\n"
            + ": comment\n\nevent: update\ndata:{\"n\":1}\r\n\r\nid\ndata\n\ndata: no blank line at the end"
        return [FuzzCorpus.chatStream(), FuzzCorpus.toolCallStream(), fields].map { Array($0.utf8) }
    }

    /// Runs the fuzzer.
    ///
    /// - Parameters:
    ///   - iterations: How many streams to parse.
    ///   - seed: The seed; the same seed gives the same streams and chunks.
    /// - Returns: What happened; streams are "accepted" (every stream parses), findings are chunkings that changed
    ///   the events.
    public static func run(iterations: Int, seed: UInt64) -> FuzzSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = FuzzSummary(target: "SSE parser", seed: seed)
        var mutator = Mutator(seed: seed, words: words)
        let sources = streams
        for iteration in 0..<iterations {
            summary.iterations += 1
            let bytes = mutator.mutate(sources[mutator.below(sources.count)])
            let whole = parse([bytes[...]])
            let chunks = split(bytes, &mutator)
            let chunked = parse(chunks)
            if whole != chunked {
                summary.record(
                    .init(
                        iteration: iteration,
                        problem: "chunking changed the events: \(whole.count) whole, \(chunked.count) in "
                            + "\(chunks.count) chunks",
                        excerpt: FuzzFinding.excerpt(bytes)))
            } else {
                summary.accepted += 1
            }
        }
        summary.duration = clock.now - start
        return summary
    }

    /// The events of a stream fed in `chunks`, with the end of the stream.
    static func parse(_ chunks: [ArraySlice<UInt8>]) -> [ServerSentEvent] {
        var parser = SSEParser()
        var events: [ServerSentEvent] = []
        for chunk in chunks { events += parser.feed(bytes: chunk) }
        if let last = parser.finish() { events.append(last) }
        return events
    }

    /// Cuts bytes into random chunks: single bytes, small pieces, or a few large ones.
    static func split(_ bytes: [UInt8], _ mutator: inout Mutator) -> [ArraySlice<UInt8>] {
        let most = [1, 3, 16, 512][mutator.below(4)]
        var chunks: [ArraySlice<UInt8>] = []
        var index = 0
        while index < bytes.count {
            let length = 1 + mutator.below(most)
            chunks.append(bytes[index..<min(bytes.count, index + length)])
            index += length
        }
        return chunks
    }
}
