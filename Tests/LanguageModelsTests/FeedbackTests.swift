import Foundation
import LanguageModels
import LanguageModelsTesting
import ParleyJSON
import Testing

@Suite struct FeedbackTests {
    @Test func theAttachmentIsSelfContained() async throws {
        struct Timeout: Error {}
        let model = MockLanguageModel(
            replies: [.text("Two gold for the amulet!"), .failure(Timeout())], id: "scripted", version: "7f3a")
        let session = LanguageModelSession(model: model, instructions: "You are Mira.")
        try await session.respond(to: "Sell me the amulet")
        _ = try? await session.respond(to: "And the ring?")  // fails: rolled back

        let data = session.logFeedbackAttachment(
            sentiment: .negative,
            issues: [
                .init(category: .incorrect, explanation: "Unexpected trade offer."), .init(category: .tooVerbose),
            ],
            desiredOutput: .response(.init(segments: [.text(.init(content: "Not for sale."))])))
        let json = try JSONValue(parsing: Array(data))
        #expect(json["type"] == "Parley.FeedbackAttachment")
        #expect(json["formatVersion"] == 1)
        #expect(json["sentiment"] == "negative")
        #expect(json["issues"]?[0] == ["category": "incorrect", "explanation": "Unexpected trade offer."])
        #expect(json["issues"]?[1] == ["category": "tooVerbose", "explanation": nil])
        #expect(json["model"] == ["id": "scripted", "version": "7f3a"])
        #expect(json["parley"]?["version"] == .string(ParleyVersion.current))
        #expect(json["transcript"]?["type"] == "FoundationModels.Transcript")
        #expect(json["transcript"]?["transcript"]?["entries"]?.arrayValue?.count == 3)
        #expect(json["rolledBackEntries"]?.arrayValue?.count == 1)
        #expect(json["rolledBackEntries"]?[0]?["role"] == "user")
        #expect(json["desiredOutput"]?["role"] == "response")
        #expect(json["createdAt"]?.stringValue.flatMap { try? Date($0, strategy: .iso8601) } != nil)
        // The transcript inside decodes with the transcript decoder.
        let inner = try #require(json["transcript"])
        #expect(try Transcript(json: inner.jsonString()) == session.transcript)

        let report = try FeedbackAttachment(data: data)
        #expect(report.rolledBackEntries.map(\.description) == ["Prompt: And the ring?"])
        #expect(try FeedbackAttachment(data: report.jsonData()) == report)
    }

    @Test func attachmentsValidateAgainstTheDocumentedSchema() async throws {
        let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/feedback-attachment.schema.json")
        let schema = try GenerationSchema(jsonSchema: try JSONValue(parsing: Array(try Data(contentsOf: schemaURL))))
        let model = MockLanguageModel(replies: [
            .toolCall("lookUpStock", arguments: #"{"item":"rope"}"#), .text("Three gold."),
            .structured(TradeOffer(item: "rope", price: 3, remarks: []).generatedContent),
        ])
        let session = LanguageModelSession(model: model, tools: [LookUpStock()], instructions: "Merchant.")
        try await session.respond(to: "Rope?")
        try await session.respond(to: "Offer?", generating: TradeOffer.self)
        for data in [
            session.logFeedbackAttachment(sentiment: .negative, issues: [.init(category: .incorrect, explanation: "x")]),
            session.logFeedbackAttachment(sentiment: nil, issues: [], desiredResponseText: "Four gold."),
        ] {
            let document = try GeneratedContent(json: String(decoding: data, as: UTF8.self))
            #expect(schema.validate(document).map(\.description) == [])
        }
        // The schema can fail: a report missing its transcript does not validate.
        let broken = try GeneratedContent(json: #"{"type":"Parley.FeedbackAttachment"}"#)
        #expect(!schema.validate(broken).isEmpty)
    }

    @Test func desiredContentIsRecordedAsStructure() throws {
        let session = LanguageModelSession(model: MockLanguageModel(replies: []))
        let offer = TradeOffer(item: "rope", price: 3, remarks: [])
        let report = try FeedbackAttachment(
            data: session.logFeedbackAttachment(sentiment: .neutral, issues: [], desiredResponseContent: offer))
        guard case .response(let response)? = report.desiredOutput,
            case .structure(let segment)? = response.segments.first
        else {
            Issue.record("no structured desired output"); return
        }
        #expect(segment.source == "TradeOffer")
        #expect(try TradeOffer(segment.content) == offer)
        #expect(report.sentiment == .neutral)
    }

    @Test func contextIsKept() throws {
        let session = LanguageModelSession(model: MockLanguageModel(replies: []))
        let report = session.feedbackAttachment(sentiment: nil, context: ["player": "Ada", "location": "market"])
        let decoded = try FeedbackAttachment(data: report.jsonData())
        #expect(decoded.context == ["player": "Ada", "location": "market"])
        #expect(decoded.sentiment == nil)
    }

    @Test(arguments: [
        ("not json", "the file is not JSON"),
        (#"{"type":"Other"}"#, #""type" is not "Parley.FeedbackAttachment""#),
        (#"{"type":"Parley.FeedbackAttachment","formatVersion":9}"#, "newer than 1"),
        (
            #"{"type":"Parley.FeedbackAttachment","formatVersion":1,"id":"x","createdAt":"2026-01-01T00:00:00Z"}"#,
            #""transcript" is missing"#
        ),
    ])
    func badAttachmentsSayWhatIsWrong(_ text: String, _ fragment: String) {
        #expect {
            try FeedbackAttachment(data: Data(text.utf8))
        } throws: { error in
            "\(error)".contains(fragment)
        }
    }

    @Test func appleHasEightCategories() {
        #expect(
            LanguageModelFeedback.Issue.Category.allCases.map(\.rawValue) == [
                "unhelpful", "tooVerbose", "didNotFollowInstructions", "incorrect", "stereotypeOrBias",
                "suggestiveOrSexual", "vulgarOrOffensive", "triggeredGuardrailUnexpectedly",
            ])
    }
}
