import SwiftSyntax
import SwiftSyntaxBuilder

// The code `@Generable` writes. Names from LanguageModels are written in full (`LanguageModels.GeneratedContent`),
// so that a type of the user's with the same name does not get in the way. The conformance is `nonisolated` and so
// is every member, so that they satisfy `Generable` in modules whose code is on the main actor by default
// (`.defaultIsolation(MainActor.self)`, Xcode 26's `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor`); docs/generable.md.

extension GenerableDeclaration {
    /// The members the type gets: `generationSchema`, `generatedContent` and, for a struct, `PartiallyGenerated`.
    public var members: [DeclSyntax] {
        switch shape {
        case .structure(let properties):
            [schema(properties), generatedContent(properties), partiallyGenerated(properties)]
        case .enumeration(let cases):
            [enumerationSchema(cases), enumerationContent(cases)]
        }
    }

    /// The extension that makes the type `Generable` and gives it `init(_:)` (outside the type, so that a struct
    /// keeps its memberwise initializer).
    ///
    /// - Parameters:
    ///   - type: The type being extended, as the compiler names it.
    ///   - conforms: Whether to declare the conformance (`false` when the type declares it itself).
    /// - Returns: The extension.
    public func conformance(of type: some TypeSyntaxProtocol, conforms: Bool) -> ExtensionDeclSyntax {
        let initializer =
            switch shape {
            case .structure(let properties): structureInitializer(properties)
            case .enumeration(let cases): enumerationInitializer(cases)
            }
        // `nonisolated` before the protocol (SE-0470): in a module whose code is on the main actor by default, a
        // conformance the macro writes is otherwise isolated to the main actor, and `Generable` (`Sendable`) cannot
        // use an isolated conformance to `ConvertibleToGeneratedContent`. Apple's macro writes the same.
        let inheritance = conforms ? ": nonisolated LanguageModels.Generable" : ""
        let text = "extension \(type.trimmedDescription)\(inheritance) {\n\(initializer)\n}"
        return DeclSyntax(stringLiteral: text).cast(ExtensionDeclSyntax.self)
    }

    // MARK: - Structs

    private func schema(_ properties: [GenerableProperty]) -> DeclSyntax {
        let entries = properties.map { property in
            var arguments = ["name: \(GuideArguments.stringLiteral(property.name))"]
            if let description = property.description { arguments.append("description: \(description)") }
            arguments.append("type: \(property.type).self")
            if !property.guides.isEmpty { arguments.append("guides: [\(property.guides.joined(separator: ", "))]") }
            return "            LanguageModels.GenerationSchema.Property(\(arguments.joined(separator: ", "))),"
        }
        let list = entries.isEmpty ? "[]" : "[\n\(entries.joined(separator: "\n"))\n        ]"
        return """
            \(raw: access)nonisolated static var generationSchema: LanguageModels.GenerationSchema {
                LanguageModels.GenerationSchema(
                    type: Self.self,\(raw: nameArgument)\(raw: descriptionArgument)\(raw: nilArgument)
                    properties: \(raw: list)
                )
            }
            """
    }

    private func generatedContent(_ properties: [GenerableProperty]) -> DeclSyntax {
        guard !properties.isEmpty else {
            return """
                \(raw: access)nonisolated var generatedContent: LanguageModels.GeneratedContent {
                    LanguageModels.GeneratedContent(properties: [:])
                }
                """
        }
        let appends = properties.map { property in
            let key = GuideArguments.stringLiteral(property.name)
            // An optional without a value is left out, or written as `null` (which `Optional` converts to).
            return property.isOptional && !representsNilExplicitly
                ? "    if let value = self.\(property.identifier) { properties.append((\(key), value)) }"
                : "    properties.append((\(key), self.\(property.identifier)))"
        }
        return """
            \(raw: access)nonisolated var generatedContent: LanguageModels.GeneratedContent {
                var properties: [(String, any LanguageModels.ConvertibleToGeneratedContent)] = []
            \(raw: appends.joined(separator: "\n"))
                return LanguageModels.GeneratedContent(properties: properties, uniquingKeysWith: { first, _ in first })
            }
            """
    }

    private func partiallyGenerated(_ properties: [GenerableProperty]) -> DeclSyntax {
        // A property of the type's own named `id` takes the place of the generation's id.
        let ownsID = properties.contains { $0.name == "id" }
        var declarations = ownsID ? [] : ["    \(access)var id: LanguageModels.GenerationID"]
        var assignments = ownsID ? [] : ["        self.id = content.id ?? LanguageModels.GenerationID()"]
        for property in properties {
            declarations.append("    \(access)var \(property.identifier): \(property.partialType)")
            assignments.append(
                "        self.\(property.identifier) = try content.partialValue(forProperty: "
                    + "\(GuideArguments.stringLiteral(property.name)))")
        }
        return """
            \(raw: access)nonisolated struct PartiallyGenerated: Identifiable, LanguageModels.ConvertibleFromGeneratedContent, Sendable {
            \(raw: declarations.joined(separator: "\n"))

                \(raw: access)init(_ content: LanguageModels.GeneratedContent) throws {
            \(raw: assignments.joined(separator: "\n"))
                }
            }
            """
    }

    private func structureInitializer(_ properties: [GenerableProperty]) -> String {
        let assignments = properties.map { property in
            // The type is left to inference, as the property's type may name a type nested beside this one, which
            // is not in scope in an extension at file level.
            "        self.\(property.identifier) = try content.value(forProperty: "
                + "\(GuideArguments.stringLiteral(property.name)))"
        }
        return """
                \(access)nonisolated init(_ content: LanguageModels.GeneratedContent) throws {
            \(assignments.joined(separator: "\n"))
                }
            """
    }

    // MARK: - Enumerations

    private func enumerationSchema(_ cases: [(name: String, identifier: String)]) -> DeclSyntax {
        let names = cases.map { GuideArguments.stringLiteral($0.name) }.joined(separator: ", ")
        return """
            \(raw: access)nonisolated static var generationSchema: LanguageModels.GenerationSchema {
                LanguageModels.GenerationSchema(
                    type: Self.self,\(raw: nameArgument)\(raw: descriptionArgument)
                    anyOf: [\(raw: names)]
                )
            }
            """
    }

    private func enumerationContent(_ cases: [(name: String, identifier: String)]) -> DeclSyntax {
        let arms = cases.map { enumCase in
            "    case .\(enumCase.identifier): LanguageModels.GeneratedContent(kind: .string("
                + "\(GuideArguments.stringLiteral(enumCase.name))))"
        }
        return """
            \(raw: access)nonisolated var generatedContent: LanguageModels.GeneratedContent {
                switch self {
            \(raw: arms.joined(separator: "\n"))
                }
            }
            """
    }

    private func enumerationInitializer(_ cases: [(name: String, identifier: String)]) -> String {
        let arms = cases.map { enumCase in
            "        case .string(\(GuideArguments.stringLiteral(enumCase.name))): self = .\(enumCase.identifier)"
        }
        let choices = cases.map { "\\\"\($0.name)\\\"" }.joined(separator: ", ")
        return """
                \(access)nonisolated init(_ content: LanguageModels.GeneratedContent) throws {
                    switch content.kind {
            \(arms.joined(separator: "\n"))
                    default:
                        throw LanguageModels.GeneratedContent.ParsingError(
                            rawContent: content.jsonString,
                            debugDescription: "Expected one of \(choices) for \(name), found \\(content.jsonString).")
                    }
                }
            """
    }

    // MARK: - Helpers

    /// `representNilExplicitlyInGeneratedContent: true,` on its own line, or nothing.
    private var nilArgument: String {
        representsNilExplicitly ? "\n        representNilExplicitlyInGeneratedContent: true," : ""
    }

    /// `name: ...,` on its own line, or nothing.
    private var nameArgument: String {
        schemaName.map { "\n        name: \($0)," } ?? ""
    }

    /// `description: ...,` on its own line, or nothing.
    private var descriptionArgument: String {
        description.map { "\n        description: \($0)," } ?? ""
    }
}
