import LanguageModels
import LanguageModelsTesting
import Testing

/// The one token rule of the models that cannot tokenize.
@Suite struct TokenEstimateTests {
    @Test(arguments: [("", 0), ("a", 1), ("abcd", 1), ("abcde", 2), ("Ten gold.", 3), ("fünf", 2)])
    func textIsOneTokenPerFourBytesRoundedUp(_ text: String, _ expected: Int) {
        #expect(TokenEstimate.tokens(inText: text) == expected)
    }

    @Test func anEntryIsFourPlusItsText() async throws {
        let prompt = Transcript.Entry.prompt(
            Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "How much is it?"))]))  // 15 bytes
        let reply = Transcript.Entry.response(
            Transcript.Response(segments: [.text(Transcript.TextSegment(content: "Twelve gold."))]))  // 12 bytes
        #expect(TokenEstimate.tokens(in: prompt) == 4 + 4)
        #expect(TokenEstimate.tokens(in: reply) == 4 + 3)
        #expect(TokenEstimate.tokens(in: [prompt, reply]) == 15)
        // The mock counts by the same rule.
        #expect(try await MockLanguageModel(replies: []).tokenCount(for: [prompt, reply]) == 15)
        #expect(MockLanguageModel.tokens(in: prompt) == TokenEstimate.tokens(in: prompt))
    }
}
