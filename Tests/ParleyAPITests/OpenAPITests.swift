import Foundation
import LanguageModels
import ParleyAPI
import ParleyHTTP
import ParleyJSON
import ParleyServer
import Testing

/// docs/openapi.json describes the API that runs: an OpenAPI 3.1 document whose every reference resolves, which lists
/// exactly the server's routes, and whose schemas the server's real answers follow.
@Suite(.timeLimit(.minutes(10))) struct OpenAPITests {
    static func document() throws -> JSONValue {
        let url = APIGamesTests.root.appendingPathComponent("docs/openapi.json")
        return try JSONValue(parsing: Array(try Data(contentsOf: url)))
    }

    /// Every `$ref` in a JSON value.
    static func references(in value: JSONValue) -> [String] {
        switch value {
        case .object(let object):
            return (object["$ref"]?.stringValue.map { [$0] } ?? [])
                + object.flatMap { references(in: $0.value) }
        case .array(let values): return values.flatMap(references(in:))
        default: return []
        }
    }

    /// A JSON Schema document for one of the response schemas: the components' schemas as `$defs`.
    static func schema(_ schema: JSONValue, in document: JSONValue) throws -> GenerationSchema {
        let text = schema.jsonString().replacingOccurrences(of: "#/components/schemas/", with: "#/$defs/")
        var root = try #require(try JSONValue(parsing: text).objectValue)
        let definitions = (document["components"]?["schemas"] ?? [:]).jsonString()
            .replacingOccurrences(of: "#/components/schemas/", with: "#/$defs/")
        root["$defs"] = try JSONValue(parsing: definitions)
        return try GenerationSchema(jsonSchema: .object(root))
    }

    @Test func theDocumentIsOpenAPI31AndEveryReferenceResolves() throws {
        let document = try Self.document()
        #expect(document["openapi"]?.stringValue?.hasPrefix("3.1.") == true)
        #expect(document["info"]?["title"]?.stringValue?.isEmpty == false)
        #expect(document["info"]?["version"] != nil)
        let schemas = try #require(document["components"]?["schemas"]?.objectValue)
        let references = Self.references(in: document)
        #expect(references.count > 30)
        for reference in references {
            #expect(reference.hasPrefix("#/components/schemas/"), "\(reference)")
            #expect(schemas[String(reference.dropFirst("#/components/schemas/".count))] != nil, "\(reference)")
        }
        var operationIDs: Set<String> = []
        for (path, item) in try #require(document["paths"]?.objectValue) {
            for (method, operation) in try #require(item.objectValue) where method != "parameters" {
                let id = try #require(operation["operationId"]?.stringValue, "\(method) \(path)")
                #expect(operationIDs.insert(id).inserted, "\(id) twice")
                #expect(operation["responses"]?.objectValue?.isEmpty == false, "\(method) \(path)")
            }
        }
    }

    @Test func itListsExactlyTheServersRoutes() async throws {
        let document = try Self.document()
        var described: Set<String> = []
        for (path, item) in try #require(document["paths"]?.objectValue) {
            for (method, _) in try #require(item.objectValue) where method != "parameters" {
                described.insert("\(method.uppercased()) \(path)")
            }
        }
        let fixture = try HTTPAPITests.Fixture()
        let served = Set(APIRoutes.router(for: fixture.games).patterns.map { "\($0.method.rawValue) \($0.pattern)" })
        await fixture.stop()
        #expect(described == served)
    }

    @Test func realAnswersFollowTheSchemas() async throws {
        let document = try Self.document()
        func responseSchema(_ method: String, _ path: String, _ status: Int) throws -> GenerationSchema {
            let response = try #require(
                document["paths"]?[path]?[method]?["responses"]?["\(status)"], "\(method) \(path) \(status)")
            let content = try #require(response["content"]?.objectValue)
            let media = content["application/json"] ?? content["application/problem+json"]
            return try Self.schema(try #require(media?["schema"]), in: document)
        }
        try await HTTPAPITests.withFixture { fixture in
            var checked = 0
            func check(
                _ method: HTTPMethod, _ url: String, _ documented: String, body: String? = nil,
                sourceLocation: SourceLocation = #_sourceLocation
            ) async throws -> JSONValue? {
                let (status, json, response) = try await fixture.call(method, url, body)
                let schema = try responseSchema(method.rawValue.lowercased(), documented, status)
                let content = try GeneratedContent(json: response.bodyText)
                let violations = schema.validate(content)
                #expect(violations.isEmpty, "\(method) \(url) \(status): \(violations)", sourceLocation: sourceLocation)
                checked += 1
                return json
            }
            _ = try await check(.get, "/v1/health", "/v1/health")
            let created = try await check(.post, "/v1/games", "/v1/games", body: "{}")
            let id = try #require(created?["id"]?.stringValue)
            let game = "/v1/games/\(id)"
            for line in ["talk to mira", "how much is the rope?", "I will take it", "accept", "go east", "go west"] {
                _ = try await check(
                    .post, game + "/input", "/v1/games/{id}/input",
                    body: (["text": .string(line)] as JSONValue).jsonString())
            }
            _ = try await check(.get, game, "/v1/games/{id}")
            _ = try await check(.post, game + "/save", "/v1/games/{id}/save", body: #"{"slot": "checked"}"#)
            _ = try await check(.get, "/v1/saves", "/v1/saves")
            _ = try await check(.get, game + "/transcript/mira", "/v1/games/{id}/transcript/{npc}")
            _ = try await check(.get, game + "/transcript/mira?annotated=1", "/v1/games/{id}/transcript/{npc}")
            _ = try await check(.get, game + "/transcript/oona", "/v1/games/{id}/transcript/{npc}")
            _ = try await check(.get, game + "/feedback", "/v1/games/{id}/feedback")
            // The saves' JSON, which the inspector's pages are made from.
            _ = try await check(.get, "/v1/saves/checked", "/v1/saves/{slot}")
            _ = try await check(.get, "/v1/saves/nowhere", "/v1/saves/{slot}")
            let conversation = try await check(
                .get, "/v1/saves/checked/conversations/mira", "/v1/saves/{slot}/conversations/{npc}")
            _ = try await check(.get, "/v1/saves/checked/conversations/oona", "/v1/saves/{slot}/conversations/{npc}")
            let turn = try #require(conversation?["turns"]?[1]?["promptEntry"]?.stringValue)
            let filed = try await check(
                .post, "/v1/saves/checked/conversations/mira/feedback", "/v1/saves/{slot}/conversations/{npc}/feedback",
                body: (["turn": .string(turn), "category": "tooVerbose"] as JSONValue).jsonString())
            _ = try await check(
                .post, "/v1/saves/checked/conversations/mira/feedback", "/v1/saves/{slot}/conversations/{npc}/feedback",
                body: #"{"turn": "no-such-turn"}"#)
            _ = try await check(.get, "/v1/saves/checked/feedback", "/v1/saves/{slot}/feedback")
            let report = try #require(filed?["id"]?.stringValue)
            _ = try await check(.get, "/v1/saves/checked/feedback/\(report)", "/v1/saves/{slot}/feedback/{id}")
            _ = try await check(.get, "/v1/saves/checked/feedback/none", "/v1/saves/{slot}/feedback/{id}")
            _ = try await check(.post, "/v1/saves/checked/replay", "/v1/saves/{slot}/replay")
            _ = try await check(.post, "/v1/games", "/v1/games", body: #"{"load": 1}"#)
            _ = try await check(.post, "/v1/games", "/v1/games", body: #"{"load": "nowhere"}"#)
            _ = try await check(.post, game + "/input", "/v1/games/{id}/input", body: #"{"say": "hi"}"#)
            _ = try await check(.get, "/v1/games/none", "/v1/games/{id}")
            #expect(checked == 29)
            let (deleted, _, _) = try await fixture.call(.delete, game)
            #expect(deleted == 204)
        }
    }
}
