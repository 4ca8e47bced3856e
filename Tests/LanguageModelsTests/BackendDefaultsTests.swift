import LanguageModels
import LanguageModelsTesting
import Testing

/// A backend's default answers to what the engine asks beyond a turn. (The bearer-token rule the engine applies after
/// `redactingSecrets(in:)` is tested in ParleyBasicsTests.)
@Suite struct BackendDefaultsTests {
    @Test func aModelWithoutSecretsLeavesTextAsItIs() {
        let text = "the key sk-abc123456789 and Bearer sk-abc123456789"
        #expect(MockLanguageModel(replies: []).redactingSecrets(in: text) == text)
        #expect(MockLanguageModel(replies: []).writesFreeText)
    }
}
