import Foundation
import LanguageModels
import ParleyJSON
import RegexBuilder
import Testing

/// `GenerationGuide.pattern(_:)` with a Swift `Regex`: its text becomes an ECMA-262 JSON Schema pattern, or the guide
/// says why it cannot; and an optional property may be `null`.
@Suite struct RegexGuideTests {
    /// The schema of one string property `code` with `guide`.
    func schema(_ guide: GenerationGuide<String>) -> GenerationSchema {
        GenerationSchema(type: String.self, properties: [.init(name: "code", type: String.self, guides: [guide])])
    }

    func keywords(_ guide: GenerationGuide<String>) -> JSONValue? {
        schema(guide).jsonSchema["properties"]?["code"]
    }

    @Test(
        arguments: [
            (.pattern(/^[A-Z][a-z]+$/), "^[A-Z][a-z]+$", "Mira", "mira"),
            (.pattern(/\d{3}-\d{4}/), #"\d{3}-\d{4}"#, "555-1234", "5551234"),
            (.pattern(/(?<year>\d{4})-(?<month>\d\d)/), #"(?<year>\d{4})-(?<month>\d\d)"#, "2026-12", "26-12"),
            (.pattern(/\Aab\z/), "^ab$", "ab", "abc"),
            (.pattern(/\Qa.b\E/), #"a\.b"#, "a.b", "axb"),
            (.pattern(/^x{,3}$/), "^x{0,3}$", "xx", "xxxx"),
            (.pattern(/^\u{E9}t\u{E9}$/), "^été$", "été", "ete"),
            (.pattern(/^(?:ab|cd)+?$/), "^(?:ab|cd)+?$", "abcd", "abc"),
        ] as [(GenerationGuide<String>, String, String, String)])
    func literalsBecomeECMAScriptPatterns(
        guide: GenerationGuide<String>, pattern: String, matching: String, other: String
    ) {
        let schema = schema(guide)
        #expect(schema.jsonSchema["properties"]?["code"]?["pattern"]?.stringValue == pattern)
        func content(_ code: String) -> GeneratedContent { GeneratedContent(properties: ["code": code]) }
        #expect(schema.validate(content(matching)).isEmpty, "\(pattern) should match \(matching)")
        #expect(!schema.validate(content(other)).isEmpty, "\(pattern) should not match \(other)")
    }

    @Test func regexesFromStringsAndBuildersKeepTheirText() throws {
        #expect(keywords(.pattern(try Regex("[0-9]+")))?["pattern"]?.stringValue == "[0-9]+")
        let built = Regex {
            OneOrMore(.digit)
            "-"
            Capture { "x" }
        }
        #expect(keywords(.pattern(built))?["pattern"]?.stringValue == #"\d+-(x)"#)
    }

    @Test(
        arguments: [
            (.pattern(/(?i)abc/), "inline option"),
            (.pattern(/a++/), "possessive quantifier"),
            (.pattern(/(?>a)b/), "atomic group"),
            (.pattern(/a\Z/), #"\Z"#),
            (.pattern(/[a-z&&[^aeiou]]/), "character class"),
        ] as [(GenerationGuide<String>, String)])
    func whatECMAScriptLacksIsMarkedUnsupported(guide: GenerationGuide<String>, reason: String) throws {
        let code = try #require(keywords(guide))
        #expect(code["pattern"] == nil)
        let marked = try #require(code["x-parley-unsupported-guide"]?.stringValue)
        #expect(marked.contains(reason) && marked.contains("has no ECMAScript equivalent"), "\(marked)")
    }

    @Test func aBuilderWithATransformHasNoTextAndIsMarkedUnsupported() throws {
        let transformed = Regex {
            TryCapture {
                OneOrMore(.digit)
            } transform: {
                Int($0)
            }
        }
        let marked = try #require(keywords(.pattern(transformed))?["x-parley-unsupported-guide"]?.stringValue)
        #expect(marked.contains("has no pattern text"))
    }

    @Test func nullIsAcceptedForAnOptionalPropertyOnly() throws {
        let schema = GenerationSchema(
            type: String.self,
            properties: [.init(name: "name", type: String.self), .init(name: "nickname", type: String?.self)])
        #expect(schema.validate(try GeneratedContent(json: #"{"name": "Mira", "nickname": null}"#)).isEmpty)
        #expect(schema.validate(try GeneratedContent(json: #"{"name": "Mira"}"#)).isEmpty)
        let violations = schema.validate(try GeneratedContent(json: #"{"name": null, "nickname": "M"}"#))
        #expect(violations.map(\.path) == ["$.name"], "\(violations)")
        let wrong = schema.validate(try GeneratedContent(json: #"{"name": "Mira", "nickname": 3}"#))
        #expect(wrong.map(\.path) == ["$.nickname"], "\(wrong)")
    }
}
