import Foundation
import ParleyHTTP
import Testing

/// Nothing printable may carry a credential: not errors, not requests, not headers.
@Suite struct HTTPPrintingTests {
    static let secretURL = "http://user:pa55@127.0.0.1:8080/v1/chat/completions?key=hunter2#frag"

    @Test func requestDescriptionAndDumpHideSecrets() {
        var request = HTTPRequest.postJSON(Self.secretURL, body: Data("{}".utf8))
        request.headers["Authorization"] = "Bearer sk-live-123"
        request.headers["X-Api-Key"] = "k-456"

        var dumped = ""
        dump(request, to: &dumped)
        for text in [request.description, String(describing: request), dumped, request.headers.description] {
            #expect(!text.contains("sk-live-123"), "\(text)")
            #expect(!text.contains("k-456"), "\(text)")
            #expect(!text.contains("hunter2"), "\(text)")
            #expect(!text.contains("pa55"), "\(text)")
        }
        #expect(request.description == "POST http://127.0.0.1:8080/v1/chat/completions")
        #expect(request.headers.description.contains("Authorization: <redacted>"))
        #expect(request.headers.description.contains("Content-Type: application/json"))
    }

    /// The client's headers share the server's credential list: cookies, proxy credentials and any name with a
    /// key, token or secret in it are redacted as `Authorization` is.
    @Test func everyCredentialHeaderIsHidden() {
        var request = HTTPRequest.get("http://127.0.0.1:8080/v1/models")
        let secrets = [
            ("Authorization", "Bearer sk-live-123"), ("Cookie", "session=c00kie-456"),
            ("Set-Cookie", "id=setc00kie-789"), ("Proxy-Authorization", "Basic cHJveHk6c2VjcmV0"),
            ("x-api-key", "k-api-111"), ("X-Auth-Token", "t-222"), ("X-Client-Secret", "s-333"),
        ]
        for (name, value) in secrets { request.headers.add(name: name, value: value) }
        var dumped = ""
        dump(request, to: &dumped)
        var dumpedHeaders = ""
        dump(request.headers, to: &dumpedHeaders)
        for text in [dumped, dumpedHeaders, request.headers.description] {
            for (name, value) in secrets { #expect(!text.contains(value), "\(name) shown in \(text)") }
        }
        #expect(request.headers["COOKIE"] == "session=c00kie-456")
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/a?b=c", "http://127.0.0.1:8080/a"),
        ("https://user:pw@host/p#f", "https://host/p"),
        ("http://host/path@x", "http://host/path@x"),
        ("http://host/a\nFAKE LOG LINE", "http://host/a%AFAKE LOG LINE"),
        ("not a url?secret=1", "not a url"),
    ])
    func urlsAreRedacted(url: String, redacted: String) {
        #expect(HTTPRequest.get(url).redactedURL == redacted)
    }

    @Test func statusErrorQuotesOnlyTheStartOfALongBody() {
        let body = Data(String(repeating: "x", count: 5_000).utf8)
        let error = HTTPStatusError(status: 500, headers: [:], body: body, url: Self.secretURL)

        #expect(error.description.count < 1_000)
        #expect(!error.description.contains("hunter2"))
        #expect(error.bodyText.count == 5_000)
    }

    @Test func headersAreCaseInsensitiveAndKeepOrder() {
        var headers: HTTPHeaders = ["Accept": "a", "X-Multi": "1"]
        headers.add(name: "x-multi", value: "2")
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values(for: "X-MULTI") == ["1", "2"])
        headers["X-Multi"] = "3"
        #expect(headers.values(for: "x-multi") == ["3"])
        #expect(headers.map(\.name) == ["Accept", "X-Multi"])
        headers["accept"] = nil
        #expect(headers.count == 1)
    }
}
