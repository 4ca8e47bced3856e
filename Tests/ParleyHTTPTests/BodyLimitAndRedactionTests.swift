import Foundation
import HTTPTestSupport
import ParleyHTTP
import Testing

/// A body read with a limit stops at it, an error body is read only as far as it is quoted, and what a server
/// echoes of the request's credentials never reaches an error.
@Suite(.timeLimit(.minutes(10))) struct BodyLimitAndRedactionTests {
    static let megabyte = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)

    // MARK: - Limits

    @Test(arguments: [false, true])
    func aBodyPastItsLimitThrowsAndIsNotReadFurther(oneLine: Bool) async throws {
        // Ten megabytes, as lines or as one line without an end: the limit holds either way.
        let chunk = oneLine ? Self.megabyte : Data(String(repeating: "data: x\n\n", count: 100_000).utf8)
        let server = try LoopbackHTTPServer(
            .stream(
                status: 200, headers: [("Content-Type", "text/event-stream")],
                chunks: Array(repeating: chunk, count: 10), interval: .zero, ending: .complete))
        let client = try HTTPClient()
        let response = try await client.stream(.get(server.url("/big"))).limitingBody(to: 64 << 10)
        var received = 0
        let error = try await #require(throws: HTTPClientError.self) {
            for try await line in response.lines { received += line.utf8.count + 1 }
        }
        #expect(error == .responseTooLarge)
        #expect(error.description.contains("more than 65536 bytes"))
        #expect(received <= 64 << 10)
    }

    @Test func aBodyWithinItsLimitIsReadWhole() async throws {
        let server = try LoopbackHTTPServer(.stream(chunks: ["one\n", "two\n"]))
        let client = try HTTPClient()
        let response = try await client.stream(.get(server.url("/small"))).limitingBody(to: 8)
        var lines: [String] = []
        for try await line in response.lines { lines.append(line) }
        #expect(lines == ["one", "two"])
    }

    @Test func anErrorBodyIsReadOnlyAsFarAsItIsQuoted() async throws {
        let server = try LoopbackHTTPServer(
            .stream(
                status: 500, headers: [], chunks: Array(repeating: Self.megabyte, count: 10), interval: .zero,
                ending: .hang))
        let client = try HTTPClient()
        let response = try await client.stream(.get(server.url("/failing")))
        // The server would never end this body: reading only a prefix is what lets this return at all.
        let (prefix, truncated) = try await response.bytes.collectPrefix(maximumBytes: 1_000)
        #expect(prefix.count == 1_000)
        #expect(truncated)

        let error = try await #require(throws: HTTPStatusError.self) {
            try await client.stream(.get(server.url("/failing"))).checkStatus(maximumBodySize: 2_000)
        }
        #expect(error.body.count == 2_000)
    }

    // MARK: - Redaction

    @Test func anEchoedCredentialIsInNoStatusError() async throws {
        let secret = "sk-echo-\(UUID().uuidString)"
        let server = try LoopbackHTTPServer { request in
            let echoed = request.header("Authorization") ?? ""
            return .respond(
                status: 401, headers: [("X-Echo", echoed), ("Content-Type", "text/plain")],
                body: Data("invalid credentials: \(echoed) (key \(secret))".utf8))
        }
        let client = try HTTPClient()
        var request = HTTPRequest.get(server.url("/v1/models"))
        request.headers["Authorization"] = "Bearer \(secret)"

        let whole = try await #require(throws: HTTPStatusError.self) { try await client.execute(request).checkStatus() }
        let streamed = try await #require(throws: HTTPStatusError.self) {
            try await client.stream(request).checkStatus()
        }
        for error in [whole, streamed] {
            #expect(!error.description.contains(secret))
            #expect(!error.bodyText.contains(secret))
            #expect(!error.headers.fields.contains { $0.value.contains(secret) })
            #expect(error.bodyText.contains(SecretRedactor.placeholder))
        }
    }

    @Test(arguments: [
        ("key sk-abc123456789 here", "key <redacted> here"),
        ("Authorization: Bearer sk-abc123456789", "Authorization: <redacted>"),
        (#"{"auth":"Bearer sk-abc123456789"}"#, #"{"auth":"<redacted>"}"#),
        ("an unknown bearer   tok_0123456789abcdef token", "an unknown bearer   <redacted> token"),
        ("the Bearer of news", "the Bearer of news"),
        ("nothing secret", "nothing secret"),
    ])
    func redactionRemovesKnownSecretsAndBearerTokens(text: String, expected: String) {
        let redactor = SecretRedactor(headers: ["Authorization": "Bearer sk-abc123456789"])
        #expect(redactor.redact(text) == expected)
    }

    @Test func redactionFindsJSONEscapedSecretsInBytes() {
        let redactor = SecretRedactor(secrets: ["sk/abc+def=="])
        let body = Data(#"{"echo":"sk\/abc+def==","again":"sk/abc+def=="}"#.utf8)
        #expect(
            String(decoding: redactor.redact(body), as: UTF8.self) == #"{"echo":"<redacted>","again":"<redacted>"}"#)
    }

    /// A key shorter than `SecretRedactor.minimumSecretLength` is a word, not a secret (`OPENAI_API_KEY=gold` must
    /// not turn "8 gold" into "8 <redacted>"); a longer one is redacted as a whole token only, never inside a word.
    @Test(arguments: [
        ("gold", "It costs 8 gold.", "It costs 8 gold."),
        ("goldgold", "It costs 8 goldgold.", "It costs 8 <redacted>."),
        ("goldgold", "goldgoldsmith and agoldgold", "goldgoldsmith and agoldgold"),
        ("sk-abc12345", "key=sk-abc12345&x", "key=<redacted>&x"),
        ("sk-abc12345", "(sk-abc12345)", "(<redacted>)"),
        ("sk-abc12345", "xsk-abc12345 sk-abc123456", "xsk-abc12345 sk-abc123456"),
        ("abc/def==", "path abc/def==xyz and abc/def==", "path <redacted>xyz and <redacted>"),
    ])
    func onlyKeysLongEnoughToBeSecretsAreRedactedAndOnlyAsWholeTokens(key: String, text: String, expected: String) {
        let redactor = SecretRedactor(secrets: [key, "Bearer \(key)"])
        #expect(redactor.redactKnown(text) == expected)
        #expect(String(decoding: redactor.redact(Data(text.utf8)), as: UTF8.self) == expected)
        let headers = SecretRedactor(headers: ["Authorization": "Bearer \(key)"])
        #expect(headers.redactKnown(text) == expected)
    }
}
