import LanguageModelsMacroSupport
import Testing

/// Declarations `@Generable` and `@Guide` cannot expand, or that would not do what they say, and what the compiler
/// shows for each: where, and what to write instead.
@Suite struct GenerableDiagnosticTests {
    @Test(arguments: [
        ("@Generable class Offer {}", 1, 12, GenerableDiagnostic.notAStructOrEnum("class")),
        ("@Generable actor Offer {}", 1, 12, .notAStructOrEnum("actor")),
        ("@Generable protocol Offer {}", 1, 12, .notAStructOrEnum("protocol")),
        ("@Generable struct Offer {\n    var price = 3\n}", 2, 9, .missingType("price")),
        ("@Generable struct Offer {\n    var (a, b): (Int, Int)\n}", 2, 9, .tuplePattern()),
        ("@Generable struct Offer {\n    var item: String!\n}", 2, 15, .implicitlyUnwrapped("item", wrapped: "String")),
        ("@Generable struct Offer {\n    lazy var item: String = \"\"\n}", 2, 14, .lazyProperty("item")),
        ("@Generable struct Offer {\n    var next: [Offer]\n}", 2, 15, .recursive("next", type: "Offer")),
        (
            "@Generable struct Offer {\n    @Guide(description: \"a\") @Guide(description: \"b\")\n    var item: String\n}",
            2, 30, .ambiguousGuide()
        ),
        (
            "@Generable struct Offer {\n    @Guide(/[0-9]+/)\n    var price: Int\n}", 2, 5,
            .regexOnNonString("price", type: "Int")
        ),
        ("@Generable enum Deal {\n    case gold(Int)\n}", 2, 10, .associatedValues("gold")),
        ("@Generable enum Deal {}", 1, 17, .noCases("Deal")),
        (
            "@Generable(representNilExplicitlyInGeneratedContent: flag)\nstruct Offer {\n    var item: String\n}",
            1, 54, .notABooleanLiteral()
        ),
    ])
    func eachMistakeIsReportedWhereItIs(_ source: String, _ line: Int, _ column: Int, _ expected: GenerableDiagnostic) {
        let expansion = MacroExpansion(source)
        #expect(expansion.diagnostics == [.init(line: line, column: column, expected)], "\(source)")
    }

    // `@Guide`'s own diagnostics: the macro system used here gives a peer macro a detached copy of its attribute, so
    // these are placed at the start of the file (the compiler places them at the guide); only the diagnostics
    // themselves are compared.
    @Test(arguments: [
        (
            "@Generable struct Offer {\n    var price: Int\n    @Guide(description: \"Doubled\")\n    var double: Int { price * 2 }\n}",
            GenerableDiagnostic.guideNotOnStoredProperty()
        ),
        (
            "struct Offer {\n    @Guide(description: \"Doubled\")\n    var double: Int { 2 }\n}",
            .guideNotOnStoredProperty()
        ),
        (
            "@Generable struct Offer {\n    @Guide(description: \"Shelves\")\n    static var shelves: Int = 4\n}",
            .guideNotOnStoredProperty()
        ),
        ("struct Offer {\n    @Guide(description: \"Price\")\n    var price: Int\n}", .guideOutsideGenerable()),
    ])
    func aGuideThatWouldHaveNoEffectIsReported(_ source: String, _ expected: GenerableDiagnostic) {
        let expansion = MacroExpansion(source)
        #expect(expansion.diagnostics.map(\.message) == [expected.message], "\(source)")
        #expect(expansion.diagnostics.map(\.severity) == [expected.severity])
        #expect(expansion.diagnostics.map(\.id) == [expected.diagnosticID])
    }

    @Test func aTypeWithAMistakeGetsNoMembersSoTheCompilerShowsOnlyTheMistake() {
        let expansion = MacroExpansion("@Generable class Offer {\n    var price: Int = 0\n}")
        #expect(!expansion.expanded.contains("generationSchema"))
        #expect(!expansion.expanded.contains("extension"))
        #expect(expansion.diagnostics.count == 1)
    }

    @Test func theMessagesSayWhatToDoInstead() {
        #expect(
            GenerableDiagnostic.notAStructOrEnum("class").message
                == "@Generable applies to a struct or an enum, not to a class: generated values are copied between "
                + "tasks and snapshots. Make it a struct, or conform to Generable by hand.")
        #expect(GenerableDiagnostic.guideOutsideGenerable().severity == .warning)
        #expect(GenerableDiagnostic.missingType("price").message.contains("`var price: Int`"))
    }

    @Test func computedStaticAndConstantPropertiesAreNotGenerated() {
        let expansion = MacroExpansion(
            """
            @Generable struct Shop {
                var keeper: String
                var greeting: String { "Hello" }
                static let shelves = 4
                let currency = "gold"
                var stock: Int { didSet {} }
            }
            """)
        #expect(expansion.diagnostics == [])
        #expect(expansion.expanded.contains(#"Property(name: "keeper""#))
        #expect(expansion.expanded.contains(#"Property(name: "stock""#), "a property with observers is stored")
        for skipped in ["greeting", "shelves", "currency"] {
            #expect(!expansion.expanded.contains(#"Property(name: "\#(skipped)""#))
        }
    }
}
