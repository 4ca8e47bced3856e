import LanguageModelsMacroSupport
import Testing

/// What `@Generable` writes: the members `Generable`'s documentation shows written by hand.
@Suite struct GenerableExpansionTests {
    @Test func aStructGetsItsSchemaConversionsAndPartialType() {
        let expansion = MacroExpansion(
            #"""
            @Generable(description: "A trade offer")
            struct Offer {
                @Guide(description: "The item's name")
                var item: String
                @Guide(description: "Gold", .range(1...500))
                var price: Int
                var remark: String?
            }
            """#)
        #expect(expansion.diagnostics == [])
        // The attribute's line stays, empty.
        #expect(
            expansion.expanded == "\n" + #"""
                struct Offer {
                    var item: String
                    var price: Int
                    var remark: String?

                    nonisolated static var generationSchema: LanguageModels.GenerationSchema {
                        LanguageModels.GenerationSchema(
                            type: Self.self,
                            description: "A trade offer",
                            properties: [
                                LanguageModels.GenerationSchema.Property(name: "item", description: "The item's name", type: String.self),
                                LanguageModels.GenerationSchema.Property(name: "price", description: "Gold", type: Int.self, guides: [.range(1 ... 500)]),
                                LanguageModels.GenerationSchema.Property(name: "remark", type: String?.self),
                            ]
                        )
                    }

                    nonisolated var generatedContent: LanguageModels.GeneratedContent {
                        var properties: [(String, any LanguageModels.ConvertibleToGeneratedContent)] = []
                        properties.append(("item", self.item))
                        properties.append(("price", self.price))
                        if let value = self.remark {
                            properties.append(("remark", value))
                        }
                        return LanguageModels.GeneratedContent(properties: properties, uniquingKeysWith: { first, _ in
                                first
                            })
                    }

                    nonisolated struct PartiallyGenerated: Identifiable, LanguageModels.ConvertibleFromGeneratedContent, Sendable {
                        var id: LanguageModels.GenerationID
                        var item: String.PartiallyGenerated?
                        var price: Int.PartiallyGenerated?
                        var remark: String.PartiallyGenerated?

                        init(_ content: LanguageModels.GeneratedContent) throws {
                            self.id = content.id ?? LanguageModels.GenerationID()
                            self.item = try content.partialValue(forProperty: "item")
                            self.price = try content.partialValue(forProperty: "price")
                            self.remark = try content.partialValue(forProperty: "remark")
                        }
                    }
                }

                extension Offer: nonisolated LanguageModels.Generable {
                    nonisolated init(_ content: LanguageModels.GeneratedContent) throws {
                        self.item = try content.value(forProperty: "item")
                        self.price = try content.value(forProperty: "price")
                        self.remark = try content.value(forProperty: "remark")
                    }
                }
                """#)
    }

    @Test func explicitNilRequiresOptionalsAndWritesThemAsNull() {
        let expansion = MacroExpansion(
            #"""
            @Generable(representNilExplicitlyInGeneratedContent: true)
            public struct Offer {
                public var remark: String?
            }
            """#)
        #expect(expansion.diagnostics == [])
        #expect(
            expansion.expanded.contains(
                """
                            type: Self.self,
                            representNilExplicitlyInGeneratedContent: true,
                            properties: [
                """))
        #expect(expansion.expanded.contains(#"properties.append(("remark", self.remark))"#))
        #expect(!expansion.expanded.contains("if let value"))
        // A public type's members are public, so that it conforms outside its module.
        #expect(expansion.expanded.contains("public nonisolated var generatedContent"))
        #expect(expansion.expanded.contains("public nonisolated init(_ content: LanguageModels.GeneratedContent)"))
        #expect(expansion.expanded.contains("public var remark: String.PartiallyGenerated?"))
    }

    @Test func aSchemaNameTakesTheTypesPlace() {
        // Apple 27's `@Generable(name:)`: the schema is named by the argument, written as it was given.
        let structure = MacroExpansion(
            #"""
            @Generable(name: "StockArguments", description: "What to look up")
            struct Arguments {
                var item: String
            }
            """#)
        #expect(structure.diagnostics == [])
        #expect(
            structure.expanded.contains(
                """
                            type: Self.self,
                            name: "StockArguments",
                            description: "What to look up",
                            properties: [
                """), "\(structure.expanded)")
        let named = MacroExpansion(
            #"""
            @Generable(name: Names.offer, representNilExplicitlyInGeneratedContent: true)
            struct Offer {
                var remark: String?
            }
            """#)
        #expect(named.diagnostics == [])
        #expect(
            named.expanded.contains(
                """
                            type: Self.self,
                            name: Names.offer,
                            representNilExplicitlyInGeneratedContent: true,
                """), "\(named.expanded)")
        let enumeration = MacroExpansion(
            #"""
            @Generable(name: "Mood")
            enum NPCMood {
                case calm
            }
            """#)
        #expect(enumeration.diagnostics == [])
        #expect(
            enumeration.expanded.contains(
                """
                            type: Self.self,
                            name: "Mood",
                            anyOf: ["calm"]
                """), "\(enumeration.expanded)")
        // Without it, nothing is named.
        let unnamed = MacroExpansion("@Generable struct Offer {\n    var item: String\n}").expanded
        #expect(unnamed.contains(/type: Self\.self,\s+properties: \[/), "\(unnamed)")
    }

    @Test func anEnumerationChoosesAmongItsCasesNames() {
        let expansion = MacroExpansion(
            #"""
            @Generable enum Mood: String {
                case calm
                case `default` = "usual"
            }
            """#)
        #expect(expansion.diagnostics == [])
        #expect(expansion.expanded.contains(#"anyOf: ["calm", "default"]"#))
        #expect(
            expansion.expanded.contains(
                """
                        case .`default`:
                            LanguageModels.GeneratedContent(kind: .string("default"))
                """))
        #expect(
            expansion.expanded.contains(
                """
                        case .string("calm"):
                            self = .calm
                """))
        #expect(!expansion.expanded.contains("PartiallyGenerated"), "an enumeration is its own partial form")
    }

    @Test func aRegexLiteralGuideIsWrittenAsTheRegexSoThatItIsTranslated() {
        // `pattern(_: Regex)` translates the literal into ECMAScript (`\A` and `\z` into `^` and `$`); its text as a
        // String would skip that.
        let expansion = MacroExpansion(
            #"""
            @Generable struct Code {
                @Guide(description: "Three letters", /\A[A-Z]{3}\d?\z/)
                var code: String
                @Guide(#/[a-z]+ \/ [a-z]+/#)
                var path: String?
            }
            """#)
        #expect(expansion.diagnostics == [])
        #expect(expansion.expanded.contains(#"guides: [.pattern(/\A[A-Z]{3}\d?\z/)]"#))
        #expect(expansion.expanded.contains(#"guides: [.pattern(#/[a-z]+ \/ [a-z]+/#)]"#))
        #expect(!expansion.expanded.contains(#".pattern(""#))
    }

    @Test func theConformanceIsNonisolatedSoThatMainActorTypesKeepIt() {
        // Under `.defaultIsolation(MainActor.self)` a type's conformances would be isolated to the main actor, which
        // `Generable` (`Sendable`) cannot use; `nonisolated` before the protocol keeps the conformance nonisolated.
        let expansion = MacroExpansion(
            #"""
            @Generable enum Mood {
                case calm
            }
            """#)
        #expect(expansion.diagnostics == [])
        #expect(expansion.expanded.contains("extension Mood: nonisolated LanguageModels.Generable {"))
        #expect(expansion.expanded.contains("nonisolated init(_ content: LanguageModels.GeneratedContent) throws"))
        #expect(expansion.expanded.contains("nonisolated var generatedContent"))
        #expect(expansion.expanded.contains("nonisolated static var generationSchema"))
    }
}
