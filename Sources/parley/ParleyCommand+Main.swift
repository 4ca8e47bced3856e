import CommandLineKit
import Foundation

extension ParleyCommand {
    /// Runs `parley` with the process's arguments and environment, and exits with the command's code.
    ///
    /// Everything a command prints with `context.print` or `context.printError` (listings, transcripts, reports,
    /// diagnostics, test results, error messages, help) is written through ``TerminalText/sanitized(_:)``: it
    /// quotes names, words and file names from players, models, content packs and saves, which must be shown,
    /// never obeyed by the terminal. JSON output stays valid JSON with the same value (see `sanitized`). The game
    /// itself writes with `Terminal.write`, through `GameRenderer`, which sanitizes what it shows the same way.
    static func main() async -> Never {
        let code = await CommandLineTool(root: root).run(
            Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
            standardOutput: { Terminal.write(TerminalText.sanitized($0)) },
            standardError: { Terminal.writeError(TerminalText.sanitized($0)) })
        exit(code.rawValue)
    }
}
