import LanguageModelsMacroSupport
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

/// Source code with `@Generable` and `@Guide` expanded the way the compiler expands them, and what the macros
/// reported.
///
/// The toolchain has no `SwiftSyntaxMacrosTestSupport` (its `assertMacroExpansion`), so this does what that does
/// with the modules it has: parse, expand with `SwiftSyntaxMacroExpansion`'s macro system, convert diagnostics'
/// positions to lines and columns.
struct MacroExpansion {
    /// A diagnostic as the compiler would show it.
    struct Reported: Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var id: MessageID
        var severity: DiagnosticSeverity
        var message: String

        var description: String { "\(line):\(column) \(severity): \(message)" }

        /// A diagnostic at a line and column.
        init(line: Int, column: Int, _ diagnostic: GenerableDiagnostic) {
            self.init(
                line: line, column: column, id: diagnostic.diagnosticID, severity: diagnostic.severity,
                message: diagnostic.message)
        }

        init(line: Int, column: Int, id: MessageID, severity: DiagnosticSeverity, message: String) {
            (self.line, self.column, self.id, self.severity, self.message) = (line, column, id, severity, message)
        }
    }

    /// The source with the macros expanded, formatted as the macro system formats it.
    let expanded: String
    /// What the macros reported, in order.
    let diagnostics: [Reported]

    /// Expands the macros in `source`.
    ///
    /// - Parameter source: Swift source using `@Generable` and `@Guide`.
    init(_ source: String) {
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(
            sourceFiles: [file: .init(moduleName: "Game", fullFilePath: "Game.swift")])
        let generable = TypeSyntax(IdentifierTypeSyntax(name: .identifier("Generable")))
        let expanded = file.expand(
            macroSpecs: [
                "Generable": MacroSpec(type: GenerableMacro.self, conformances: [generable]),
                "Guide": MacroSpec(type: GuideMacro.self),
            ],
            contextGenerator: { node in
                BasicMacroExpansionContext(sharingWith: context, lexicalContext: node.allMacroLexicalContexts())
            },
            indentationWidth: .spaces(4))
        let converter = SourceLocationConverter(fileName: "Game.swift", tree: file)
        self.expanded = expanded.description
        self.diagnostics = context.diagnostics.map { diagnostic in
            let location = diagnostic.location(converter: converter)
            return Reported(
                line: location.line, column: location.column, id: diagnostic.diagnosticID,
                severity: diagnostic.diagMessage.severity, message: diagnostic.message)
        }
    }
}
