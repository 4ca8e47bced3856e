import Testing

@testable import ParleyServer

/// Splitting and decoding request targets, and refusing the ones that could fool a handler.
@Suite struct RequestTargetTests {
    @Test(arguments: [
        ("/", [String]()),
        ("/v1/games/g1", ["v1", "games", "g1"]),
        ("/v1/games/Mira%20Vale", ["v1", "games", "Mira Vale"]),
        ("/a+b", ["a+b"]),  // + is a plus in a path
        ("/caf%C3%A9", ["café"]),
        ("/a//b/", ["a", "", "b", ""]),  // empty segments are kept and match no route
        ("/%2e%2e.txt", ["...txt"]),  // only whole dot segments are refused
        ("http://example.org/v1/x?y=1", ["v1", "x"]),  // absolute form
        ("HTTP://example.org", []),
    ])
    func decodesPaths(target: String, segments: [String]) throws {
        #expect(try RequestTarget(parsing: target).segments == segments)
    }

    @Test(arguments: [
        "/a%2Fb",  // an encoded slash would add a segment
        "/a/%2e%2E/b", "/a/../b", "/./a", "/a/.",  // dot segments, plain or escaped
        "/a%00b", "/a%0Ab", "/%7F",  // control characters
        "/a%G1", "/a%2", "/a%",  // malformed escapes
        "/%C3", "/%FF",  // not UTF-8
        "/a#fragment", "relative", "", "/a b",
        "/?%zz", "/?a=%C3", "/?a=%00",
    ])
    func refusesUnsafeOrMalformedTargets(target: String) {
        #expect(throws: RequestFailure.self, "\(target.debugDescription)") { try RequestTarget(parsing: target) }
    }

    @Test func decodesTheQuery() throws {
        let query = try RequestTarget(parsing: "/t?annotated=1&name=Mira+Vale&tag=a&tag=b%26c&flag&=empty&&").query
        #expect(query["annotated"] == "1")
        #expect(query["name"] == "Mira Vale")
        #expect(query.values(for: "tag") == ["a", "b&c"])
        #expect(query["flag"] == "")
        #expect(query[""] == "empty")
        #expect(query["missing"] == nil)
        #expect(query.items.count == 6)
    }

    @Test func knowsTheAsterisk() throws {
        #expect(try RequestTarget(parsing: "*").isAsterisk)
    }
}
