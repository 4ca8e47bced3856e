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

/// The same two regexes as `@Guide` regex literals, which the macro hands to `pattern(_: Regex)` as well.
@Generable
struct LiteralGuides {
    @Guide(description: "A word in lower case", /\A[a-z]+\z/)
    let word: String
}

/// A `@Guide` regex literal with an inline option, which cannot be translated.
@Generable
struct LiteralGreeting {
    @Guide(description: "A greeting", /(?i)hello/)
    let text: String
}

extension SystemLanguageModelTests {
    @Test("A @Guide regex literal is translated: \\A and \\z become ^ and $")
    func regexLiteralTranslated() async throws {
        unconfigure()
        let word = try #require(LiteralGuides.generationSchema.jsonSchema["properties"]?["word"])
        #expect(word["pattern"]?.stringValue == "^[a-z]+$")
        SystemLanguageModel.configure(ReplyingModel(reply: #"{"word": "lantern"}"#))
        defer { SystemLanguageModel.resetConfiguration() }
        let content = try await LanguageModelSession().respond(to: "A word?", generating: LiteralGuides.self).content
        #expect(content.word == "lantern")
    }

    @Test("A @Guide regex literal that cannot be translated is refused before the model is asked")
    func regexLiteralRefused() async throws {
        unconfigure()
        let model = ReplyingModel(reply: #"{"text": "Hello"}"#)
        SystemLanguageModel.configure(model)
        defer { SystemLanguageModel.resetConfiguration() }
        await #expect {
            try await LanguageModelSession().respond(to: "Greet me", generating: LiteralGreeting.self)
        } throws: { error in
            guard case LanguageModelError.unsupportedGenerationGuide(let info) = error else { return false }
            return info.debugDescription.contains("inline option")
        }
        #expect(model.requestCount == 0)
    }

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
