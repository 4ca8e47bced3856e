import ParleyHTTPTypes
import Testing

/// The header fields both the client and the server use.
@Suite struct HTTPFieldsTests {
    @Test(arguments: [
        ("Authorization", true), ("proxy-authorization", true), ("COOKIE", true), ("Set-Cookie", true),
        ("X-Api-Key", true), ("x-apikey", true), ("X-Auth-Token", true), ("X-Client-Secret", true),
        ("Content-Type", false), ("Accept", false), ("Host", false), ("Authorized-By", false),
    ])
    func theCredentialList(name: String, sensitive: Bool) {
        #expect(HTTPFields.isSensitive(name: name) == sensitive)
    }

    @Test func namesFoldASCIICaseOnly() {
        #expect(HTTPFields.namesMatch("Content-Type", "content-TYPE"))
        #expect(!HTTPFields.namesMatch("Content-Type", "Content-Typ"))
        // Not Unicode case folding: "K" (Kelvin sign) lowercases to "k" in Unicode, not in HTTP.
        #expect(!HTTPFields.namesMatch("\u{212A}ey", "key"))
    }

    @Test func settingReplacesEveryFieldOfANameAtTheFirstPlace() {
        var fields: HTTPFields = ["Accept": "a", "X-One": "1", "accept": "b"]
        fields["ACCEPT"] = "c"
        #expect(fields.fields == [.init(name: "Accept", value: "c"), .init(name: "X-One", value: "1")])
        fields.replaceOrAdd(name: "x-one", value: "2")
        #expect(fields.fields.last == .init(name: "x-one", value: "2"))
        fields["x-one"] = nil
        #expect(fields.count == 1 && !fields.contains(name: "X-One"))
        fields.add(name: "Connection", value: " keep-alive ,, Upgrade\t")
        #expect(fields.listElements(for: "connection") == ["keep-alive", "Upgrade"])
    }

    @Test func descriptionAndMirrorRedact() {
        let fields: HTTPFields = ["Authorization": "Bearer secret-1", "Accept": "text/plain"]
        var dumped = ""
        dump(fields, to: &dumped)
        #expect(fields.description == "Authorization: <redacted>\nAccept: text/plain")
        #expect(!dumped.contains("secret-1") && dumped.contains("<redacted>") && dumped.contains("text/plain"))
    }

    @Test func anEventsRetryIsADurationOrMilliseconds() {
        let event = ServerSentEvent(event: "delta", data: "{}", id: "7", retry: 1500)
        #expect(event == ServerSentEvent(event: "delta", data: "{}", id: "7", retry: .milliseconds(1500)))
        #expect(event.retryMilliseconds == 1500)
        #expect(ServerSentEvent(data: "x", retry: .microseconds(1500)).retryMilliseconds == 2)
        #expect(ServerSentEvent(data: "x").retryMilliseconds == nil)
        #expect(HTTPMethod(rawValue: "GET") == .get)
    }
}
