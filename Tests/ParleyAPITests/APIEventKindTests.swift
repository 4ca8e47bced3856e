import Foundation
import ParleyAPI
import ParleyJSON
import Testing

/// An event's type is `APIEvent.Kind`, whose raw values are the names on the wire: exactly the ones docs/openapi.json
/// and docs/api.md list, so that the code and the documents cannot drift apart.
@Suite struct APIEventKindTests {
    /// The event types docs/openapi.json lists (`Event`'s `type` enum), in order.
    static func specifiedTypes() throws -> [String] {
        let document = try OpenAPITests.document()
        let names = try #require(
            document["components"]?["schemas"]?["Event"]?["properties"]?["type"]?["enum"]?.arrayValue,
            "docs/openapi.json has no enum of the Event's type")
        return try names.map { try #require($0.stringValue, "\($0) is not a string") }
    }

    /// The event types of the table in docs/api.md, "Events": the names in backquotes in each row's first column
    /// (`gave`, `received` share a row).
    static func documentedTypes() throws -> [String] {
        let url = APIGamesTests.root.appendingPathComponent("docs/api.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "## Events"), "docs/api.md has no \"## Events\" section")
        let header = try #require(
            lines[start...].firstIndex { $0.hasPrefix("| `type` |") }, "the Events section has no table of types")
        var names: [String] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("| ") else { break }
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            let pieces = cell.split(separator: "`", omittingEmptySubsequences: false)
            names += pieces.indices.filter { $0 % 2 == 1 }.map { String(pieces[$0]) }
        }
        return names
    }

    @Test func theRawValuesAreExactlyTheTypesTheSpecificationLists() throws {
        let specified = try Self.specifiedTypes()
        let kinds = APIEvent.Kind.allCases.map(\.rawValue)
        #expect(specified.count > 20)
        #expect(Set(specified).count == specified.count, "docs/openapi.json lists a type twice: \(specified)")
        #expect(
            Set(kinds) == Set(specified),
            """
            only in APIEvent.Kind: \(Set(kinds).subtracting(specified).sorted()); \
            only in docs/openapi.json: \(Set(specified).subtracting(kinds).sorted())
            """)
    }

    @Test func theRawValuesAreExactlyTheTypesTheAPIDocumentLists() throws {
        let documented = try Self.documentedTypes()
        let kinds = APIEvent.Kind.allCases.map(\.rawValue)
        #expect(documented.count > 20)
        #expect(Set(documented).count == documented.count, "docs/api.md lists a type twice: \(documented)")
        #expect(
            Set(kinds) == Set(documented),
            """
            only in APIEvent.Kind: \(Set(kinds).subtracting(documented).sorted()); \
            only in docs/api.md: \(Set(documented).subtracting(kinds).sorted())
            """)
    }

    @Test(arguments: APIEvent.Kind.allCases)
    func anEventSaysItsTypeOnTheWireByItsRawValue(_ kind: APIEvent.Kind) throws {
        let event = APIEvent(kind, npc: .init(id: "mira", name: "Mira Quickcoin"), JSONObject([("text", "Hello")]))
        #expect(event.json["type"]?.stringValue == kind.rawValue)
        #expect(event.description.hasPrefix(#"{"type":"\#(kind.rawValue)","npc":"#))
        #expect(APIEvent.Kind(rawValue: kind.rawValue) == kind)
    }

    @Test(arguments: ["", "Speech", "speech ", "done", "toolcall", "questFailed"])
    func aNameThatIsNoEventsTypeIsNone(_ name: String) {
        #expect(APIEvent.Kind(rawValue: name) == nil)
    }
}
