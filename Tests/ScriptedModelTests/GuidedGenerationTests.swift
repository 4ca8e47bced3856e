import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// With a schema, the model fills it from its scripted reply, or says clearly that it cannot.
@Suite struct GuidedGenerationTests {
    struct Line: CodableGenerable {
        var text: String
        var mood: String
        var price: Int?
        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Line.self,
                properties: [
                    .init(name: "text", type: String.self),
                    .init(name: "mood", type: String.self, guides: [.anyOf(["cheerful", "grumpy"])]),
                    .init(name: "price", type: Int?.self),
                ])
        }
    }

    @Test func aSchemaIsFilledFromTheReply() async throws {
        let visit = try Packs.visit("mira")
        let session = try visit.session()
        let response = try await session.respond(to: "How much is the lantern?", generating: Line.self)
        #expect(NPCVisit.calls(in: session) == [#"lookUpStock({"item":"lantern"})"#])
        #expect(try Packs.voice("mira").said(response.content.text, "price", .priced))
        #expect(response.content.mood == "cheerful")
        #expect(response.content.price == 25)
    }

    @Test func aSchemaItCannotFollowFailsWithUnsupportedCapability() async throws {
        let schema = try GenerationSchema(
            jsonSchema: [
                "type": "object", "properties": ["code": ["type": "string", "pattern": "^[0-9]{6}$"]],
                "required": ["code"],
            ])
        let session = try Packs.visit("mira").session()
        await #expect {
            try await session.respond(to: "hello", schema: schema)
        } throws: { error in
            guard case LanguageModelError.unsupportedCapability(let info) = error else { return false }
            return info.capability == .guidedGeneration && info.debugDescription.contains("$.code")
        }
        #expect(session.transcript.count == 1, "the failed turn was rolled back")
    }
}
