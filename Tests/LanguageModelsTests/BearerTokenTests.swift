import LanguageModels
import LanguageModelsTesting
import Testing

/// Bearer tokens are removed from text wherever they appear; words after "bearer" are not tokens. The same cases as
/// ParleyHTTP's `SecretRedactor`, which has its own copy of the rule.
@Suite struct BearerTokenTests {
    @Test(arguments: [
        ("Authorization: Bearer sk-abc123456789", "Authorization: Bearer <redacted>"),
        (#"{"auth":"Bearer sk-abc123456789"}"#, #"{"auth":"Bearer <redacted>"}"#),
        ("BEARER\ttok_0123456789abcdef, then more", "BEARER\t<redacted>, then more"),
        (#"{"auth":"Bearer a\/b\/c\/d\/e"}"#, #"{"auth":"Bearer <redacted>"}"#),
        ("the Bearer of news", "the Bearer of news"),
        ("Bearer short", "Bearer short"),
        ("bearer", "bearer"),
        ("nothing to see", "nothing to see"),
    ])
    func bearerTokensAreRedacted(text: String, expected: String) {
        #expect(text.redactingBearerTokens() == expected)
    }

    @Test func aModelWithoutSecretsLeavesTextAsItIs() {
        let text = "the key sk-abc123456789 and Bearer sk-abc123456789"
        #expect(MockLanguageModel(replies: []).redactingSecrets(in: text) == text)
        #expect(MockLanguageModel(replies: []).writesFreeText)
    }
}
