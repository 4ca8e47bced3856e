import Foundation
import GameWorld
import ParleyJSON
import ScriptedModel
import Testing

@testable import ParleyEngine
@testable import ParleyEvaluation

/// `Content/schema/test.schema.json`, docs/modding.md ("Testing your NPCs") and the runner agree on a step's fields,
/// and on `says`: a regular expression matched ignoring case, checked with the scripted model and with grounded
/// voicing (`checksSays`), not with free voicing.
@Suite struct TestPlanSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func stepSchema() throws -> JSONObject {
        let url = root.appendingPathComponent("Content/schema/test.schema.json")
        let schema = try JSONValue(parsing: try String(contentsOf: url, encoding: .utf8))
        return try #require(schema["properties"]?["steps"]?["items"]?["properties"]?.objectValue)
    }

    /// The rows of the docs' step table: field name and its "Passes when" text.
    static func documentedSteps() throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/modding.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "**A step**").dropFirst().first)
        var rows: [String: String] = [:]
        for line in section.split(separator: "\n").drop(while: { !$0.hasPrefix("|") }).prefix(while: {
            $0.hasPrefix("|")
        }) {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[0].hasPrefix("`") else { continue }
            rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[2]
        }
        return rows
    }

    @Test func theSchemaAndTheDocsListTheSameStepFields() throws {
        let documented = try Self.documentedSteps()
        #expect(!documented.isEmpty)
        #expect(Set(documented.keys) == Set(try Self.stepSchema().keys))
    }

    @Test func theSchemaAndTheDocsSayTheSameOfSays() throws {
        let says = try #require(try Self.stepSchema()["says"])
        let description = try #require(says["description"]?.stringValue)
        let documented = try #require(try Self.documentedSteps()["says"])
        #expect(says["format"]?.stringValue == "regex")
        for both in ["ignoring case", "--voice grounded"] {
            #expect(description.contains(both), "schema: \(description)")
            #expect(documented.contains(both), "docs: \(documented)")
        }
        #expect(description.contains("--voice free"))
    }

    /// What the schema and the docs say of `says` is what the runner does.
    @Test(arguments: [
        (true, false, "FRIEND", true), (true, false, "25 g.ld", true), (true, false, "99 gold", false),
        (false, true, "99 gold", false), (false, true, "friend", true), (false, false, "99 gold", true),
    ])
    func saysIsARegularExpressionIgnoringCase(
        checksWording: Bool, checksSays: Bool, pattern: String, passes: Bool
    ) async throws {
        let plan = try ConversationTest(
            json: """
                {"name": "p", "steps": [{"do": "talk to mira"},
                  {"do": "how much is the lantern?", "says": "\(pattern)"}]}
                """, file: "tests/p.json")
        let runner = ConversationTestRunner(
            pack: try shippedPack(), models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) },
            checksWording: checksWording, checksSays: checksSays)
        let result = await runner.run(plan)
        #expect(result.passed == passes, "\(result.failures)")
    }
}
