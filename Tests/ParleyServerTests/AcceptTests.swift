import Foundation
import ParleyServer
import Testing

/// `HTTPServerRequest.preferredMediaType(among:)`: the type a request's `Accept` prefers, by its quality values.
@Suite struct AcceptTests {
    static func request(accept: [String]) -> HTTPServerRequest {
        HTTPServerRequest(
            method: .get, path: "/", headers: HTTPFields(accept.map { .init(name: "Accept", value: $0) }))
    }

    static let offered = ["application/json", "text/event-stream"]

    @Test(
        arguments: [
            ([], "application/json"),
            (["text/event-stream"], "text/event-stream"),
            (["text/event-stream;q=0, application/json"], "application/json"),
            (["application/json;q=0.5, text/event-stream"], "text/event-stream"),
            (["application/json, text/event-stream;q=0.9"], "application/json"),
            (["text/event-stream, application/json"], "text/event-stream"),
            (["application/json, text/event-stream"], "application/json"),
            (["*/*"], "application/json"),
            (["text/*"], "text/event-stream"),
            (["text/*;q=0.2, */*;q=0.5"], "application/json"),
            (["*/*;q=0.1, text/event-stream;q=0"], "application/json"),
            (["text/event-stream;charset=utf-8;q=0.8", "application/json;q=0.7"], "text/event-stream"),
            (["TEXT/Event-Stream ; Q=0.3 , application/json ; q=0.2"], "text/event-stream"),
            (["text/html"], nil),
            (["application/json;q=0, text/event-stream;q=0"], nil),
            (["text/event-stream;q=2, application/json"], "application/json"),
            (["text/event-stream;q=0.12345, application/json;q=0.1"], "application/json"),
            // A field with no range that can be read counts as none: everything is acceptable.
            (["*/json"], "application/json"),
            (["garbage, application/json"], "application/json"),
        ] as [([String], String?)])
    func theTypeWithTheHighestQualityWins(accept: [String], preferred: String?) {
        #expect(Self.request(accept: accept).preferredMediaType(among: Self.offered) == preferred)
    }
}
