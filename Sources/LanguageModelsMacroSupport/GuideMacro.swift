import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Guide`: adds nothing itself; `@Generable` reads it from the property. It reports guides that would have no
/// effect: on a computed or static property, or in a type that is not `@Generable`.
public struct GuideMacro: PeerMacro {
    /// Checks where the guide is.
    ///
    /// - Parameters:
    ///   - node: The `@Guide` attribute.
    ///   - declaration: What it is attached to.
    ///   - context: Where diagnostics go; its lexical context says which type the property is in.
    /// - Returns: No declarations.
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self),
            !variable.modifiers.contains(where: {
                $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
            }),
            variable.bindings.contains(where: GenerableDeclaration.isStored)
        else {
            context.diagnose(Diagnostic(node: node, message: GenerableDiagnostic.guideNotOnStoredProperty()))
            return []
        }
        // The innermost type around the property; the compiler gives it when it supports lexical contexts.
        let container = context.lexicalContext.lazy.compactMap { $0.asProtocol(DeclGroupSyntax.self) }.first
        if let container,
            !container.attributes.contains(where: { element in
                guard let attribute = element.as(AttributeSyntax.self) else { return false }
                let name = attribute.attributeName.trimmedDescription
                return name == "Generable" || name == "LanguageModels.Generable"
            })
        {
            context.diagnose(Diagnostic(node: node, message: GenerableDiagnostic.guideOutsideGenerable()))
        }
        return []
    }
}
