import LanguageModels
import LanguageModelsTesting
import Testing

/// `response.usage` and `session.usage` in Apple 27's shape, beside the backend's detailed `generationUsage`.
@Suite struct UsageTests {
    @Test func theMockReportsUsageByItsTokenRule() async throws {
        let model = MockLanguageModel(replies: [.text("Twelve gold.")])
        let session = LanguageModelSession(model: model, instructions: "You are Mira.")
        let response = try await session.respond(to: "How much?")
        let request = try #require(model.requests.first)
        let read = try await model.tokenCount(for: request)
        #expect(response.usage.input == .init(totalTokenCount: read, cachedTokenCount: 0))
        #expect(response.usage.output.totalTokenCount == MockLanguageModel.tokens(inText: "Twelve gold."))
        #expect(response.usage.totalTokenCount == read + MockLanguageModel.tokens(inText: "Twelve gold."))
        #expect(response.generationUsage?.promptTokens == read)
        #expect(session.usage == response.usage)
    }

    @Test func aTurnWithToolCallsAddsUpItsRequestsAndTheSessionAddsUpItsTurns() async throws {
        let model = MockLanguageModel(replies: [
            .toolCall("lookUpStock", arguments: #"{"item":"lantern"}"#), .text("12 gold."),
            .reasoning("think", then: .text("Yes.")),
        ])
        let session = LanguageModelSession(model: model, tools: [LookUpStock()])
        let first = try await session.respond(to: "Lantern?")
        var read = 0
        for request in model.requests { read += try await model.tokenCount(for: request) }
        #expect(first.usage.input.totalTokenCount == read)
        #expect(
            first.usage.output.totalTokenCount
                == MockLanguageModel.tokens(inText: #"lookUpStock{"item":"lantern"}"#)
                + MockLanguageModel.tokens(inText: "12 gold."))
        let second = try await session.streamResponse(to: "Sure?").collect()
        #expect(second.usage.output.reasoningTokenCount == MockLanguageModel.tokens(inText: "think"))
        #expect(
            second.usage.output.totalTokenCount
                == MockLanguageModel.tokens(inText: "Yes.") + second.usage.output.reasoningTokenCount)
        #expect(
            session.usage.input.totalTokenCount
                == first.usage.input.totalTokenCount + second.usage.input.totalTokenCount)
        #expect(session.usage.output.totalTokenCount == first.usage.output.totalTokenCount + 3)
    }

    @Test func nothingReportedIsZeroAndCountsStayConsistent() {
        let none = LanguageModelSession.Usage(nil)
        #expect(none.input == .init(totalTokenCount: 0, cachedTokenCount: 0))
        #expect(none.output == .init(totalTokenCount: 0, reasoningTokenCount: 0))
        #expect(none.metadata.isEmpty && none.totalTokenCount == 0)
        // A server that says more was cached than read is held to what was read.
        let odd = LanguageModelSession.Usage(
            GenerationUsage(promptTokens: 5, cachedPromptTokens: 9, completionTokens: 2, promptSeconds: 0.5))
        #expect(odd.input.cachedTokenCount == 5)
        #expect(odd.metadata["promptSeconds"] == GeneratedContent(kind: .number(0.5)))
        let made = LanguageModelSession.Usage(
            input: .init(totalTokenCount: 3, cachedTokenCount: 1),
            output: .init(totalTokenCount: 4, reasoningTokenCount: 0),
            metadata: ["server": "llama"])
        #expect(made.totalTokenCount == 7)
        #expect(made.metadata["server"] == GeneratedContent(kind: .string("llama")))
        #expect(made.description == "input 3 (cached 1), output 4")
    }
}
