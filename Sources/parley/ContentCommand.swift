import CommandLineKit
import Foundation
import GameWorld

/// `parley content`: tools for content packs.
enum ContentCommand {
    /// The `content` group.
    static let command = Command(
        "content", abstract: "Work with content packs.", subcommands: [check])

    /// `parley content check [DIR] [--json]`.
    static let check = Command(
        "check", abstract: "Check a content pack and report every problem in it.",
        discussion: """
            Prints each problem as 'file: JSON path: problem (hint)', errors first, then warnings, and a summary.
            Exits with 1 when the pack has an error, 0 otherwise (warnings do not fail the check).
            """,
        arguments: [Argument("DIR", help: "The pack's directory.", defaultValue: "Content")],
        options: [.flag("json", help: "Print one JSON document with the diagnostics and counts.")],
        handler: runCheck)

    @Sendable static func runCheck(_ context: CommandContext) throws -> ExitCode {
        let directory = context.arguments.value("DIR") ?? "Content"
        let result = ContentPack.load(from: URL(fileURLWithPath: directory), displayPath: directory)
        let report = ContentCheckReport(result)
        if context.arguments.flag("json") {
            context.print(report.json.jsonString(.prettyPrinted))
        } else {
            context.print(report.text, terminator: "")
        }
        return report.exitCode == 0 ? .success : .failure
    }
}
