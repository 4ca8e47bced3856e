#if GENERABLE_MACROS
import FoundationModels
import Testing

/// A traveller, with an optional nickname and a booking code guided by a regex, as Apple-style code writes them.
@Generable
struct Traveller {
    @Guide(description: "The traveller's name")
    let name: String
    @Guide(description: "A nickname, or null when there is none")
    let nickname: String?
    @Guide(description: "The booking code", .pattern(/[A-Z]{3}-\d{2}/))
    let code: String
}

/// A greeting guided by a regex with an inline option, which JSON Schema patterns cannot say.
@Generable
struct Greeting {
    @Guide(description: "A greeting", .pattern(/(?i)hello/))
    let text: String
}

extension SystemLanguageModelTests {
    @Test("An optional property the model answers with null is nil")
    func nullForAnOptional() async throws {
        unconfigure()
        SystemLanguageModel.configure(ReplyingModel(reply: #"{"name": "Mira", "nickname": null, "code": "EAS-03"}"#))
        defer { SystemLanguageModel.resetConfiguration() }
        let traveller = try await LanguageModelSession().respond(to: "Who travels?", generating: Traveller.self)
            .content
        #expect(traveller.name == "Mira")
        #expect(traveller.nickname == nil)
        #expect(traveller.code == "EAS-03")
    }

    @Test("A regex guide becomes the schema's pattern, which the answer is checked against")
    func regexPattern() async throws {
        unconfigure()
        let schema = Traveller.generationSchema.jsonSchema
        let code = try #require(schema["properties"]?["code"])
        #expect(code["pattern"]?.stringValue == #"[A-Z]{3}-\d{2}"#)
        SystemLanguageModel.configure(ReplyingModel(reply: #"{"name": "Mira", "nickname": "M", "code": "eas-3"}"#))
        defer { SystemLanguageModel.resetConfiguration() }
        await #expect(throws: (any Error).self) {
            try await LanguageModelSession().respond(to: "Who travels?", generating: Traveller.self)
        }
    }

    @Test("A regex JSON Schema cannot say is refused as an unsupported guide, before the model is asked")
    func untranslatableRegex() async throws {
        unconfigure()
        let model = ReplyingModel(reply: #"{"text": "Hello"}"#)
        SystemLanguageModel.configure(model)
        defer { SystemLanguageModel.resetConfiguration() }
        await #expect {
            try await LanguageModelSession().respond(to: "Greet me", generating: Greeting.self)
        } throws: { error in
            guard case LanguageModelError.unsupportedGenerationGuide(let info) = error else { return false }
            return info.debugDescription.contains("inline option")
        }
        #expect(model.requestCount == 0)
    }
}
#endif
