import Foundation
import LanguageModels
import ParleyJSON

/// Fuzzes the transcript decoders with seeded mutations of Apple-format documents: whole transcripts
/// (`Transcript(jsonData:)`, and Foundation's `JSONDecoder` on a share), single entries as save files store them
/// (`Transcript.Entry(json:)`), annotated transcripts and feedback attachments.
///
/// Each input must decode or throw `DecodingError.dataCorrupted` with a description. What decodes must encode to
/// JSON that decodes again to the same JSON: Parley never writes a transcript it cannot read back.
///
/// ```swift
/// let summary = TranscriptDecoderFuzzer.run(iterations: 20_000, seed: 1)
/// print(summary)        // transcript decoder: 20000 inputs, ... 0 findings
/// ```
public enum TranscriptDecoderFuzzer {
    /// The words inserted besides JSON's: the format's member names and values.
    static let words = [
        #""role""#, #""toolCalls""#, #""contents""#, #""arguments""#, #""structure""#, #""version""#, #""tools""#,
        #""user""#, #""tool""#, #""response""#, #""instructions""#, #""reasoning""#, #""toolCallID""#,
        #""responseFormat""#, #""options""#, #""type""#, #""text""#, #""id""#, #""entries""#, #""transcript""#,
        #""FoundationModels.Transcript""#, #""jsonSchema""#, #""function""#, #""parameters""#,
    ]

    /// Runs the fuzzer.
    ///
    /// - Parameters:
    ///   - iterations: How many inputs to try.
    ///   - seed: The seed; the same seed gives the same inputs.
    /// - Returns: What happened.
    public static func run(iterations: Int, seed: UInt64) -> FuzzSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = FuzzSummary(target: "transcript decoder", seed: seed)
        var mutator = Mutator(seed: seed, words: words)
        let documents = FuzzCorpus.transcripts()
        let entries = documents.flatMap { document -> [[UInt8]] in
            guard let value = try? JSONValue(parsing: document) else { return [] }
            return (value["transcript"]?["entries"]?.arrayValue ?? []).map { Array($0.jsonString().utf8) }
        }
        let annotated = documents.compactMap { document -> [UInt8]? in
            guard let transcript = try? Transcript(jsonData: Data(document)) else { return nil }
            let value = AnnotatedTranscript(
                transcript: transcript, annotations: ["npc": "mira", "player": "Ada", "gold": "14"],
                turnAnnotations: [transcript.first?.id ?? "x": ["location": "market"]])
            return Array(value.jsonString().utf8)
        }
        let reports = documents.compactMap { document -> [UInt8]? in
            guard let transcript = try? Transcript(jsonData: Data(document)) else { return nil }
            let attachment = FeedbackAttachment(
                id: "report-1", createdAt: Date(timeIntervalSince1970: 1_750_000_000), sentiment: .negative,
                issues: [.init(category: .incorrect, explanation: "Unexpected trade offer.")],
                desiredOutput: nil, transcript: transcript, rolledBackEntries: [], modelID: "scripted",
                modelVersion: "1.abc", context: ["npc": "mira"])
            return Array(attachment.jsonData())
        }

        for iteration in 0..<iterations {
            summary.iterations += 1
            switch iteration % 4 {
            case 0, 1:
                let bytes = mutator.mutate(documents[mutator.below(documents.count)])
                check(bytes, iteration: iteration, into: &summary) {
                    try Transcript(jsonData: Data($0))
                } roundTrip: {
                    Array($0.jsonString().utf8)
                } decodeAgain: {
                    try Transcript(jsonData: Data($0))
                }
                if iteration % 8 == 0 {
                    // Foundation's decoder goes through `Decodable`: it may fail however it likes, but not crash.
                    do {
                        _ = try JSONDecoder().decode(Transcript.self, from: Data(bytes))
                    } catch {
                        if let problem = DecodingErrors.problem(with: error, requireDataCorrupted: false) {
                            summary.record(
                                .init(iteration: iteration, problem: problem, excerpt: FuzzFinding.excerpt(bytes)))
                        }
                    }
                }
            case 2:
                let bytes = mutator.mutate(entries[mutator.below(entries.count)], maximum: 3)
                check(bytes, iteration: iteration, into: &summary) {
                    try Transcript.Entry(json: String(decoding: $0, as: UTF8.self))
                } roundTrip: {
                    Array($0.jsonString().utf8)
                } decodeAgain: {
                    try Transcript.Entry(json: String(decoding: $0, as: UTF8.self))
                }
            default:
                if iteration % 8 == 3 {
                    let bytes = mutator.mutate(annotated[mutator.below(annotated.count)])
                    check(bytes, iteration: iteration, into: &summary) {
                        try AnnotatedTranscript(json: String(decoding: $0, as: UTF8.self))
                    } roundTrip: {
                        Array($0.jsonString().utf8)
                    } decodeAgain: {
                        try AnnotatedTranscript(json: String(decoding: $0, as: UTF8.self))
                    }
                } else {
                    let bytes = mutator.mutate(reports[mutator.below(reports.count)])
                    check(bytes, iteration: iteration, into: &summary) {
                        try FeedbackAttachment(data: Data($0))
                    } roundTrip: {
                        Array($0.jsonData())
                    } decodeAgain: {
                        try FeedbackAttachment(data: Data($0))
                    }
                }
            }
        }
        summary.duration = clock.now - start
        return summary
    }

    /// Decodes one input; on success, checks that what it encodes to decodes again and encodes the same.
    static func check<Value>(
        _ bytes: [UInt8], iteration: Int, into summary: inout FuzzSummary, decode: ([UInt8]) throws -> Value,
        roundTrip encode: (Value) -> [UInt8], decodeAgain: ([UInt8]) throws -> Value
    ) {
        let value: Value
        do {
            value = try decode(bytes)
        } catch {
            if let problem = DecodingErrors.problem(with: error, requireDataCorrupted: true) {
                summary.record(.init(iteration: iteration, problem: problem, excerpt: FuzzFinding.excerpt(bytes)))
            } else {
                summary.rejected += 1
            }
            return
        }
        summary.accepted += 1
        let written = encode(value)
        do {
            let again = encode(try decodeAgain(written))
            if again != written {
                summary.record(
                    .init(
                        iteration: iteration, problem: "decoding what Parley wrote and writing it again changed it",
                        excerpt: FuzzFinding.excerpt(written)))
            }
        } catch {
            summary.record(
                .init(
                    iteration: iteration, problem: "Parley wrote JSON it cannot read back: \(error)",
                    excerpt: FuzzFinding.excerpt(written)))
        }
    }
}
