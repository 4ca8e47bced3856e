import SwiftDiagnostics
import SwiftSyntax

/// A type marked `@Generable`, as the macro reads it from the source: a struct's stored properties or an
/// enumeration's cases, its access level and its description.
public struct GenerableDeclaration: Equatable {
    /// What the model generates for the type.
    public enum Shape: Equatable {
        /// A struct: its stored properties, in the order they are declared.
        case structure([GenerableProperty])
        /// An enumeration: its cases' names (without backticks) and how code refers to them.
        case enumeration([(name: String, identifier: String)])

        /// Compares shapes.
        public static func == (lhs: Shape, rhs: Shape) -> Bool {
            switch (lhs, rhs) {
            case (.structure(let a), .structure(let b)): a == b
            case (.enumeration(let a), .enumeration(let b)): a.map(\.name) == b.map(\.name)
            default: false
            }
        }
    }

    /// The type's name as written.
    public let name: String
    /// The access modifier the generated members need, with a trailing space: `public `, `package ` or nothing.
    public let access: String
    /// The `description:` given to `@Generable`, as the expression written there.
    public let description: String?
    /// The `name:` given to `@Generable` (Apple 27), as the expression written there: the schema's name instead
    /// of the type's.
    public var schemaName: String?
    /// The properties or cases.
    public let shape: Shape
    /// Whether `representNilExplicitlyInGeneratedContent: true` was given: a struct's optional properties are then
    /// required, may be `null`, and are written as `null` when they have no value.
    public var representsNilExplicitly = false

    /// Reads a declaration marked `@Generable`.
    ///
    /// - Parameters:
    ///   - attribute: The `@Generable` attribute, for its description.
    ///   - declaration: The type.
    /// - Returns: The declaration, or `nil` when it cannot be expanded; and what is wrong with it, for the compiler
    ///   to show.
    public static func read(
        attribute: AttributeSyntax, declaration: some DeclGroupSyntax
    ) -> (
        GenerableDeclaration?, [Diagnostic]
    ) {
        let description = labeledArgument("description", of: attribute)
        let schemaName = labeledArgument("name", of: attribute)
        if let structure = declaration.as(StructDeclSyntax.self) {
            let name = structure.name.text
            var (properties, diagnostics) = storedProperties(of: structure, typeName: bare(name))
            var representsNil = false
            if let argument = labeledArgumentExpression("representNilExplicitlyInGeneratedContent", of: attribute) {
                if let literal = argument.as(BooleanLiteralExprSyntax.self) {
                    representsNil = literal.literal.tokenKind == .keyword(.true)
                } else {
                    diagnostics.append(Diagnostic(node: argument, message: GenerableDiagnostic.notABooleanLiteral()))
                }
            }
            guard !diagnostics.contains(where: { $0.diagMessage.severity == .error }) else { return (nil, diagnostics) }
            var generable = GenerableDeclaration(
                name: name, access: access(of: structure.modifiers), description: description,
                shape: .structure(properties))
            generable.representsNilExplicitly = representsNil
            generable.schemaName = schemaName
            return (generable, diagnostics)
        }
        if let enumeration = declaration.as(EnumDeclSyntax.self) {
            let name = enumeration.name.text
            var cases: [(name: String, identifier: String)] = []
            var diagnostics: [Diagnostic] = []
            for member in enumeration.memberBlock.members {
                guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
                for element in caseDecl.elements {
                    if element.parameterClause != nil {
                        diagnostics.append(
                            Diagnostic(
                                node: element, message: GenerableDiagnostic.associatedValues(bare(element.name.text))))
                    }
                    cases.append((bare(element.name.text), element.name.text))
                }
            }
            if cases.isEmpty && diagnostics.isEmpty {
                diagnostics.append(Diagnostic(node: enumeration.name, message: GenerableDiagnostic.noCases(name)))
            }
            guard diagnostics.isEmpty else { return (nil, diagnostics) }
            var generable = GenerableDeclaration(
                name: name, access: access(of: enumeration.modifiers), description: description,
                shape: .enumeration(cases))
            generable.schemaName = schemaName
            return (generable, [])
        }
        let kind: (String, Syntax) =
            if let decl = declaration.as(ClassDeclSyntax.self) {
                ("class", Syntax(decl.classKeyword))
            } else if let decl = declaration.as(ActorDeclSyntax.self) {
                ("actor", Syntax(decl.actorKeyword))
            } else if let decl = declaration.as(ProtocolDeclSyntax.self) {
                ("protocol", Syntax(decl.protocolKeyword))
            } else if let decl = declaration.as(ExtensionDeclSyntax.self) {
                ("extension", Syntax(decl.extensionKeyword))
            } else {
                ("declaration", Syntax(declaration))
            }
        return (nil, [Diagnostic(node: kind.1, message: GenerableDiagnostic.notAStructOrEnum(kind.0))])
    }

    // MARK: - Structs

    /// The stored instance properties of a struct, in order, with what is wrong with them.
    private static func storedProperties(
        of structure: StructDeclSyntax, typeName: String
    ) -> (
        [GenerableProperty], [Diagnostic]
    ) {
        var properties: [GenerableProperty] = []
        var diagnostics: [Diagnostic] = []
        for member in structure.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let modifiers = variable.modifiers.map(\.name.tokenKind)
            if modifiers.contains(.keyword(.static)) || modifiers.contains(.keyword(.class)) { continue }
            let guides = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }.filter(isGuide)
            let stored = variable.bindings.filter(isStored)
            if guides.count > 1 || (guides.count == 1 && stored.count > 1) {
                diagnostics.append(
                    Diagnostic(node: guides.last ?? guides[0], message: GenerableDiagnostic.ambiguousGuide()))
                continue
            }
            let guide = guides.first.map(GuideArguments.init)
            let bindings = Array(variable.bindings)
            for (index, binding) in bindings.enumerated() where isStored(binding) {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                    diagnostics.append(Diagnostic(node: binding.pattern, message: GenerableDiagnostic.tuplePattern()))
                    continue
                }
                let name = bare(pattern.identifier.text)
                if modifiers.contains(.keyword(.lazy)) {
                    diagnostics.append(Diagnostic(node: pattern, message: GenerableDiagnostic.lazyProperty(name)))
                    continue
                }
                // A `let` with a value is a constant: it cannot be set from generated content.
                if variable.bindingSpecifier.tokenKind == .keyword(.let) && binding.initializer != nil { continue }
                // In `var a, b: Int` the type written last applies to `a` too.
                let type =
                    binding.typeAnnotation?.type
                    ?? (binding.initializer == nil
                        ? bindings[index...].lazy.compactMap(\.typeAnnotation?.type).first : nil)
                guard let type else {
                    diagnostics.append(Diagnostic(node: pattern, message: GenerableDiagnostic.missingType(name)))
                    continue
                }
                if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
                    diagnostics.append(
                        Diagnostic(
                            node: type,
                            message: GenerableDiagnostic.implicitlyUnwrapped(
                                name, wrapped: unwrapped.wrappedType.trimmedDescription)))
                    continue
                }
                if GenerableProperty.mentions(type, typeNamed: typeName) {
                    diagnostics.append(
                        Diagnostic(node: type, message: GenerableDiagnostic.recursive(name, type: typeName)))
                    continue
                }
                let wrapped = GenerableProperty.optionalWrapped(type)
                let wrappedType = (wrapped ?? type).trimmedDescription
                if let guide, guide.hasRegex, wrappedType != "String" && wrappedType != "Swift.String" {
                    diagnostics.append(
                        Diagnostic(
                            node: guides[0],
                            message: GenerableDiagnostic.regexOnNonString(name, type: type.trimmedDescription)))
                    continue
                }
                properties.append(
                    GenerableProperty(
                        name: name, identifier: pattern.identifier.text, type: type.trimmedDescription,
                        wrappedType: wrappedType, isOptional: wrapped != nil, description: guide?.description,
                        guides: guide?.guides ?? []))
            }
        }
        return (properties, diagnostics)
    }

    /// Whether a binding stores a value: it has no accessors, or only observers (`willSet`, `didSet`).
    static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        switch binding.accessorBlock?.accessors {
        case nil: true
        case .getter: false
        case .accessors(let accessors):
            accessors.allSatisfy {
                $0.accessorSpecifier.tokenKind == .keyword(.willSet)
                    || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
            }
        @unknown default: false
        }
    }

    /// Whether an attribute is `@Guide` (or `@LanguageModels.Guide`).
    static func isGuide(_ attribute: AttributeSyntax) -> Bool {
        let name = attribute.attributeName.trimmedDescription
        return name == "Guide" || name == "LanguageModels.Guide"
    }

    // MARK: - Helpers

    /// The expression given for a labeled argument of an attribute, as written.
    static func labeledArgument(_ label: String, of attribute: AttributeSyntax) -> String? {
        labeledArgumentExpression(label, of: attribute)?.trimmedDescription
    }

    /// The expression given for a labeled argument of an attribute.
    static func labeledArgumentExpression(_ label: String, of attribute: AttributeSyntax) -> ExprSyntax? {
        guard case .argumentList(let arguments) = attribute.arguments else { return nil }
        return arguments.first { $0.label?.text == label }?.expression
    }

    /// The access modifier generated members need: `public ` for public and open types, `package ` for package ones.
    static func access(of modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// A name without the backticks it may be written with.
    static func bare(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count > 1 ? String(name.dropFirst().dropLast()) : name
    }
}
