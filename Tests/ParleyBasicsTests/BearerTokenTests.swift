import ParleyBasics
import Testing

/// Bearer tokens are removed from text wherever they appear; words after "bearer" are not tokens. One rule, used by
/// ParleyHTTP's `SecretRedactor` for every server text and by the engine for every failure it shows or records.
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
}
