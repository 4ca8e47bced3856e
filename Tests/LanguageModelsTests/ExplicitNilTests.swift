import Foundation
import LanguageModels
import LanguageModelsTesting
import ParleyJSON
import Testing

/// A hand-written type whose schema represents `nil` explicitly.
private struct Note: CodableGenerable, Equatable {
    struct Seal: CodableGenerable, Equatable {
        var wax: String
        var mark: String?
        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Seal.self, representNilExplicitlyInGeneratedContent: true,
                properties: [.init(name: "wax", type: String.self), .init(name: "mark", type: String?.self)])
        }
    }
    var text: String
    var signature: String?
    var seal: Seal?
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Note.self, description: "A note", representNilExplicitlyInGeneratedContent: true,
            properties: [
                .init(name: "text", type: String.self),
                .init(name: "signature", description: "Who signed", type: String?.self, guides: [.anyOf(["Mira"])]),
                .init(name: "seal", type: Seal?.self),
            ])
    }
}

#if GENERABLE_MACROS
/// The same type written with the macro (built only where the toolchain has SwiftSyntax for it).
@Generable(description: "A note", representNilExplicitlyInGeneratedContent: true)
private struct MacroNote: Equatable {
    var text: String
    @Guide(description: "Who signed", .anyOf(["Mira"]))
    var signature: String?
    var count: Int?
}
#endif

/// `representNilExplicitlyInGeneratedContent` and `Never`, as Apple's framework has them.
@Suite struct ExplicitNilTests {
    @Test func optionalPropertiesBecomeRequiredAndNullable() throws {
        let schema = try #require(Note.generationSchema.jsonSchema.objectValue)
        #expect(schema["required"] == .array(["text", "signature", "seal"]))
        let signature = try JSONValue(
            parsing:
                #"{"anyOf": [{"type": "string", "enum": ["Mira"]}, {"type": "null"}], "description": "Who signed"}"#)
        #expect(schema["properties"]?["signature"] == signature)
        #expect(
            schema["properties"]?["seal"]
                == (try JSONValue(parsing: ##"{"anyOf": [{"$ref": "#/$defs/Seal"}, {"type": "null"}]}"##)))
    }

    @Test func withoutItOptionalPropertiesMayBeLeftOut() throws {
        let schema = GenerationSchema(
            type: Note.self, representNilExplicitlyInGeneratedContent: false,
            properties: [.init(name: "text", type: String.self), .init(name: "signature", type: String?.self)])
        #expect(
            schema
                == GenerationSchema(
                    type: Note.self,
                    properties: [.init(name: "text", type: String.self), .init(name: "signature", type: String?.self)]))
        #expect(schema.jsonSchema["required"] == .array(["text"]))
    }

    @Test func theModelMustWriteNullAndContentDoes() throws {
        let schema = Note.generationSchema
        #expect(!schema.validate(try GeneratedContent(json: #"{"text": "hi"}"#)).isEmpty, "signature is required")
        #expect(
            schema.validate(try GeneratedContent(json: #"{"text": "hi", "signature": null, "seal": null}"#)).isEmpty)
        #expect(
            !schema.validate(try GeneratedContent(json: #"{"text": "hi", "signature": "Bo", "seal": null}"#)).isEmpty)

        let note = Note(text: "hi", signature: nil, seal: .init(wax: "red", mark: nil))
        #expect(note.generatedContent.jsonString == #"{"text":"hi","signature":null,"seal":{"wax":"red","mark":null}}"#)
        #expect(schema.validate(note.generatedContent).isEmpty)
        #expect(try Note(note.generatedContent) == note)
    }

    #if GENERABLE_MACROS
    @Test func theMacroWritesTheSameSchemaAndNulls() throws {
        #expect(MacroNote.generationSchema.jsonSchema["required"] == .array(["text", "signature", "count"]))
        #expect(
            MacroNote.generationSchema.jsonSchema["properties"]?["signature"]
                == Note.generationSchema.jsonSchema["properties"]?["signature"])
        let note = MacroNote(text: "hi", signature: nil, count: nil)
        #expect(note.generatedContent.jsonString == #"{"text":"hi","signature":null,"count":null}"#)
        #expect(MacroNote.generationSchema.validate(note.generatedContent).isEmpty)
        #expect(try MacroNote(note.generatedContent) == note)
        #expect(
            try MacroNote(GeneratedContent(json: #"{"text": "hi"}"#)) == note, "reading still accepts a missing key")
    }
    #endif

    // MARK: - Never

    @Test func neverIsGenerableAndNothingConvertsToIt() throws {
        func schema<Value: Generable>(of _: Value.Type) -> GenerationSchema { Value.generationSchema }
        let never = schema(of: Never.self)
        #expect(never.jsonSchema == (try JSONValue(parsing: #"{"not": {}}"#)))
        for json in [#""text""#, "3", "null", "{}", "[]"] {
            let content = try GeneratedContent(json: json)
            #expect(!never.validate(content).isEmpty, "\(json) must not follow Never's schema")
            #expect(throws: GeneratedContent.ParsingError.self) { try Never(content) }
        }
        // As an element type it makes an array that can only be empty.
        #expect([Never].generationSchema.validate(try GeneratedContent(json: "[]")).isEmpty)
        #expect(!([Never].generationSchema.validate(try GeneratedContent(json: "[1]")).isEmpty))
    }
}
