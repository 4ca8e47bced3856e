import Foundation
import ParleyServer
import Testing

/// Nothing the server prints of a request carries a credential: not `description`, not `dump(_:)`.
@Suite struct HeaderRedactionTests {
    static let secrets = [
        ("Authorization", "Bearer sk-server-123"), ("Cookie", "session=c00kie-456"),
        ("Set-Cookie", "id=setc00kie-789"), ("Proxy-Authorization", "Basic cHJveHk6c2VjcmV0"),
        ("X-Api-Key", "k-api-111"), ("X-Auth-Token", "t-222"), ("X-Client-Secret", "s-333"),
    ]

    @Test func dumpAndDescriptionOfRequestHeadersHideEveryCredential() {
        var headers: HTTPFields = ["Content-Type": "application/json"]
        for (name, value) in Self.secrets { headers.add(name: name, value: value) }
        let request = HTTPServerRequest(method: .post, path: "/v1/games", headers: headers)
        var dumped = ""
        dump(request, to: &dumped)
        var dumpedHeaders = ""
        dump(request.headers, to: &dumpedHeaders)
        for text in [dumped, dumpedHeaders, request.headers.description, String(describing: request.headers)] {
            for (name, value) in Self.secrets {
                #expect(!text.contains(value), "\(name) shown in \(text)")
            }
            #expect(text.contains("application/json"), "\(text)")
        }
        #expect(request.headers.description.contains("Authorization: <redacted>"))
        // Lookup still sees the values, in any case.
        #expect(request.headers["authorization"] == "Bearer sk-server-123")
        #expect(HTTPRequestMethod.post == .post && request.method.rawValue == "POST")
    }
}
