import LanguageModelsMacroSupport
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// The compiler plugin: the compiler starts it and asks it, over standard input and output, to expand `@Generable`
/// and `@Guide`.
///
/// The toolchain ships SwiftSyntax's message handling for plugins but not the `SwiftCompilerPlugin` module that
/// usually wraps it (`@main struct P: CompilerPlugin`), so this does the same few steps itself.
@main
struct LanguageModelsMacrosPlugin: PluginProvider {
    /// The error for a macro this plugin does not have.
    struct UnknownMacro: Error, CustomStringConvertible {
        let module: String
        let type: String
        var description: String {
            "LanguageModelsMacros has no macro \(module).\(type); it expands GenerableMacro and GuideMacro. "
                + "Rebuild the package, so that the plugin and the macros LanguageModels declares match."
        }
    }

    /// The macro the compiler names.
    func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
        switch typeName {
        case "GenerableMacro": GenerableMacro.self
        case "GuideMacro": GuideMacro.self
        default: throw UnknownMacro(module: moduleName, type: typeName)
        }
    }

    /// Answers the compiler's messages until it closes the connection.
    static func main() throws {
        let connection = try StandardIOMessageConnection()
        let listener = CompilerPluginMessageListener(connection: connection, provider: LanguageModelsMacrosPlugin())
        try listener.main()
    }
}
