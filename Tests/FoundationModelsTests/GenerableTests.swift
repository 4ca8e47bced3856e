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

/// Two tools' arguments, both `Arguments`, told apart by their schema names (Apple 27's `@Generable(name:)`).
enum Lanterns {
    @Generable(name: "LanternArguments", description: "Which lantern")
    struct Arguments {
        @Guide(description: "The lantern's colour")
        let colour: String
        let mood: Mood
    }

    @Generable(name: "LanternMood")
    enum Mood {
        case warm
        case cold
    }
}

enum Figs {
    @Generable(name: "FigArguments", representNilExplicitlyInGeneratedContent: true)
    struct Arguments {
        let count: Int
        let remark: String?
    }
}

/// Both arguments in one schema: without their names, the two `Arguments` would share one `$defs` entry.
@Generable
struct Errand {
    let lantern: Lanterns.Arguments
    let figs: Figs.Arguments
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

extension SystemLanguageModelTests {
    @Test("@Generable(name:) names the schema, its $defs entry and the request's response format")
    func generableName() async throws {
        #expect(Lanterns.Arguments.generationSchema.name == "LanternArguments")
        #expect(Figs.Arguments.generationSchema.name == "FigArguments")
        #expect(Lanterns.Mood.generationSchema.name == "LanternMood")
        let errand = Errand.generationSchema.debugDescription
        for name in ["LanternArguments", "FigArguments", "LanternMood"] {
            #expect(errand.contains("\"#/$defs/\(name)\""), "\(errand)")
        }
        #expect(!errand.contains("\"Arguments\""), "\(errand)")
        // The description and the explicit nulls are kept beside the name.
        let lantern = Lanterns.Arguments.generationSchema.debugDescription
        #expect(lantern.contains(#""description": "Which lantern""#), "\(lantern)")
        let figs = Figs.Arguments.generationSchema.debugDescription
        #expect(figs.contains(#""null""#), "\(figs)")
        // Content converts both ways as without a name.
        let value = Errand(
            lantern: .init(colour: "amber", mood: .warm), figs: .init(count: 3, remark: nil))
        let again = try Errand(value.generatedContent)
        #expect(again.lantern.colour == "amber" && again.lantern.mood == .warm && again.figs.count == 3)

        // A request names its response format by the schema's name.
        unconfigure()
        let server = try LoopbackModelServer(reply: #"{"colour": "red", "mood": "cold"}"#)
        defer { server.stop() }
        try SystemLanguageModel.configure(server.url)
        defer { SystemLanguageModel.resetConfiguration() }
        let answer = try await LanguageModelSession().respond(to: "Which lantern?", generating: Lanterns.Arguments.self)
        #expect(answer.content.colour == "red" && answer.content.mood == .cold)
        let body = try #require(server.chatBodies.last)
        #expect(body.contains(#""name":"LanternArguments""#), "\(body)")
    }
}
#endif
