import Foundation
import LanguageModels
import LanguageModelsTesting
import Testing

/// The code examples of Apple's article "Inspecting session transcripts and reporting model feedback", run
/// against this module with `MockLanguageModel` as the model.
@Suite struct AppleArticleExampleTests {
    func chattySession(replies: [MockLanguageModel.Reply], contextSize: Int = 4096) -> LanguageModelSession {
        LanguageModelSession(
            model: MockLanguageModel(contextSize: contextSize, replies: replies), tools: [LookUpStock()],
            instructions: "You are Mira, a merchant.")
    }

    @Test func iteratingTheTranscriptWithASwitch() async throws {
        let session = chattySession(replies: [
            .toolCall("lookUpStock", arguments: #"{"item": "lantern"}"#), .text("Twelve gold."),
        ])
        try await session.respond(to: "How much is a lantern?")
        var seen: [String] = []
        for entry in session.transcript {
            switch entry {
            case .instructions(let instructions): seen.append("instructions \(instructions.toolDefinitions.count)")
            case .prompt(let prompt): seen.append("prompt \(prompt.segments.count)")
            case .toolCalls(let calls): seen.append("toolCalls \(calls.map(\.toolName))")
            case .toolOutput(let output): seen.append("toolOutput \(output.toolName)")
            case .response(let response): seen.append("response \(response.segments.map(\.description))")
            case .reasoning: seen.append("reasoning")
            case .unknown(let unknown): seen.append("unknown \(unknown.role)")
            }
        }
        #expect(
            seen == [
                "instructions 1", "prompt 1", #"toolCalls ["lookUpStock"]"#, "toolOutput lookUpStock",
                #"response ["Twelve gold."]"#,
            ])
    }

    @Test func historyLeavesOutTheInstructions() async throws {
        let session = chattySession(replies: [.text("Hello!")])
        try await session.respond(to: "Hi")
        #expect(session.transcript.count == 3)
        #expect(session.transcript.history.count == 2)
        guard case .prompt = session.transcript.history.first else {
            Issue.record("history starts with \(session.transcript.history[0])"); return
        }
        var transcript = session.transcript
        transcript.history = Transcript.HistoryView()
        #expect(transcript.count == 1)
        #expect(transcript.instructions != nil)
    }

    @Test func trimmingByAssigningANewTranscript() async throws {
        let session = chattySession(replies: [.text("One."), .text("Two."), .text("Three.")])
        for question in ["1?", "2?", "3?"] { try await session.respond(to: question) }
        let entries = Array(session.transcript)
        let kept = [entries.first!] + entries.suffix(2)
        session.transcript = Transcript(entries: kept)
        #expect(session.transcript.count == 3)
        #expect(responseTexts(session.transcript) == ["Three."])
    }

    @Test func encodingDecodingAndRestoringASession() async throws {
        let model = MockLanguageModel(replies: [.text("Welcome!"), .text("As I said: welcome.")])
        let session = LanguageModelSession(model: model, tools: [LookUpStock()], instructions: "You are Mira.")
        try await session.respond(to: "Hello")

        let data = try JSONEncoder().encode(session.transcript)
        let decoded = try JSONDecoder().decode(Transcript.self, from: data)
        #expect(decoded == session.transcript)

        let restored = LanguageModelSession(model: model, tools: [LookUpStock()], transcript: decoded)
        let reply = try await restored.respond(to: "What did you say?")
        #expect(reply.content == "As I said: welcome.")
        #expect(responseTexts(restored.transcript) == ["Welcome!", "As I said: welcome."])
        // The second request carried the restored conversation.
        #expect(model.requests[1].transcript.count == 4)
    }

    @Test func recoveringFromAFullContextWindowByTrimming() async throws {
        let long = String(repeating: "The road north is long. ", count: 20)
        let session = chattySession(
            replies: [.text(long), .text(long), .text("Short answer.")], contextSize: 300)
        try await session.respond(to: "Tell me about the road.")
        var recovered = false
        do {
            try await session.respond(to: "And again?")
            try await session.respond(to: "Once more?")
        } catch LanguageModelError.contextSizeExceeded(let info) {
            #expect(info.tokenCount > info.contextSize)
            #expect(info.contextSize == 300)
            // Recover as the article shows: keep the instructions and the last exchange, then retry.
            let entries = Array(session.transcript)
            session.transcript = Transcript(entries: [entries[0]] + entries.suffix(0))
            try await session.respond(to: "Once more?")
            recovered = true
        }
        #expect(recovered)
        #expect(responseTexts(session.transcript).last == "Short answer.")
    }

    @Test func reportingFeedbackOnAnIncorrectAnswer() async throws {
        let session = chattySession(replies: [.text("The amulet? Yours for 2 gold.")])
        try await session.respond(to: "Sell me the amulet")
        let issue = LanguageModelFeedback.Issue(category: .incorrect, explanation: "The amulet is a quest item.")
        let data = session.logFeedbackAttachment(
            sentiment: .negative, issues: [issue], desiredResponseText: "The amulet is not for sale.")
        let report = try FeedbackAttachment(data: data)
        #expect(report.sentiment == .negative)
        #expect(report.issues == [issue])
        #expect(report.transcript == session.transcript)
        #expect(report.desiredOutput?.description == "Response: The amulet is not for sale.")
        #expect(report.modelID == "mock")
    }
}
