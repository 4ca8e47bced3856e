import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Generable`: writes a struct's or an enumeration's schema, its conversions to and from generated content and,
/// for a struct, its `PartiallyGenerated` type (see `GenerableDeclaration` for what it reads, and its `members` and
/// `conformance(of:conforms:)` for what it writes).
public struct GenerableMacro: MemberMacro, ExtensionMacro {
    /// Writes `generationSchema`, `generatedContent` and `PartiallyGenerated`, or reports why it cannot.
    ///
    /// The mistakes in the type are reported here only, not again by the extension.
    ///
    /// - Parameters:
    ///   - node: The `@Generable` attribute.
    ///   - declaration: The type.
    ///   - protocols: The protocols the compiler asks the type to conform to.
    ///   - context: Where diagnostics go.
    /// - Returns: The members.
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let (generable, diagnostics) = GenerableDeclaration.read(attribute: node, declaration: declaration)
        for diagnostic in diagnostics { context.diagnose(diagnostic) }
        return generable?.members ?? []
    }

    /// Writes the extension that declares the `Generable` conformance and `init(_:)`.
    ///
    /// - Parameters:
    ///   - node: The `@Generable` attribute.
    ///   - declaration: The type.
    ///   - type: The type's name, as the extension must spell it.
    ///   - protocols: The protocols the type does not conform to yet: `Generable`, or none when the type declares it.
    ///   - context: Unused: the member expansion reports mistakes.
    /// - Returns: The extension, or none when the type cannot be expanded.
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let generable = GenerableDeclaration.read(attribute: node, declaration: declaration).0 else { return [] }
        return [generable.conformance(of: type, conforms: !protocols.isEmpty)]
    }
}
