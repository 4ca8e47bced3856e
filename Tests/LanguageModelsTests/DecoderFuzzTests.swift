import Foundation
import LanguageModels
import LanguageModelsTesting
import Testing

/// Feeds thousands of mutated and truncated documents to the decoders: each must decode or throw a clear error,
/// never crash. The generator is seeded, so a failure reproduces.
@Suite struct DecoderFuzzTests {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
    }

    static let tokens = Array(#"{}[]",:0123456789-.eE\"tnrfalsxu "#.utf8) + [0xC3, 0xA9, 0xFF, 0x00]
    static let keys = [
        #""role""#, #""toolCalls""#, #""contents""#, #""arguments""#, #""structure""#, #""version""#, #""tools""#,
        "null", "[]", "{}", "1e999", #""user""#, #""tool""#,
    ]

    static func mutate(_ source: [UInt8], _ generator: inout Generator) -> [UInt8] {
        var bytes = source
        for _ in 0..<(1 + generator.below(6)) {
            let position = generator.below(bytes.count + 1)
            switch generator.below(5) {
            case 0 where position < bytes.count: bytes.remove(at: position)
            case 1: bytes.insert(tokens[generator.below(tokens.count)], at: position)
            case 2: bytes.insert(contentsOf: Array(keys[generator.below(keys.count)].utf8), at: position)
            case 3: bytes = Array(bytes.prefix(position))
            default:
                if position < bytes.count { bytes[position] = tokens[generator.below(tokens.count)] }
            }
        }
        return bytes
    }

    @Test func transcriptDecodersNeverCrash() throws {
        let sources = try TranscriptFormatTests.fixtures.map { Array(try fixture($0).utf8) }
        var generator = Generator(state: 2026)
        var decoded = 0
        var rejected = 0
        for iteration in 0..<4_000 {
            let bytes = Self.mutate(sources[iteration % sources.count], &generator)
            do {
                _ = try Transcript(jsonData: Data(bytes))
                decoded += 1
            } catch let error as DecodingError {
                guard case .dataCorrupted(let context) = error, !context.debugDescription.isEmpty else {
                    Issue.record("unclear error \(error)"); continue
                }
                rejected += 1
            }
            // The Foundation path too, on a share of the documents.
            if iteration % 4 == 0 { _ = try? JSONDecoder().decode(Transcript.self, from: Data(bytes)) }
        }
        #expect(decoded > 0)
        #expect(rejected > 0)
    }

    @Test func generatedContentAndFeedbackDecodersNeverCrash() throws {
        let offer = TradeOffer(item: "lantern", price: 12, remarks: ["a", "b"]).generatedContent.jsonString
        let session = LanguageModelSession(model: MockLanguageModel(replies: []), instructions: "x")
        let report = Array(session.logFeedbackAttachment(sentiment: .negative, issues: [.init(category: .incorrect)]))
        var generator = Generator(state: 7)
        for _ in 0..<3_000 {
            let text = String(decoding: Self.mutate(Array(offer.utf8), &generator), as: UTF8.self)
            if let content = try? GeneratedContent(json: text) {
                _ = try? TradeOffer(content)
                _ = TradeOffer.generationSchema.validate(content)
            }
            _ = try? FeedbackAttachment(data: Data(Self.mutate(report, &generator)))
        }
    }
}
