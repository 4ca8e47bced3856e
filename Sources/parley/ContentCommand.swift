import CommandLineKit
import Foundation
import GameWorld

/// `parley content`: tools for content packs.
enum ContentCommand {
    /// The `content` group.
    static let command = Command(
        "content", abstract: "Work with content packs.", subcommands: [check])

    /// `--json`: one JSON document instead of text.
    static let jsonFlag = Option.flag("json", help: "Print one JSON document with the diagnostics and counts.")

    /// `parley content check [DIR] [--json]`.
    static let check = Command(
        "check", abstract: "Check a content pack and report every problem in it.",
        discussion: """
            Prints each problem as 'file: JSON path: problem (hint)', errors first, then warnings, and a summary.
            Exits with 1 when the pack has an error, 0 otherwise (warnings do not fail the check).
            """,
        arguments: [CommonArguments.contentDirectory.argument],
        options: [jsonFlag],
        handler: runCheck)

    @Sendable static func runCheck(_ context: CommandContext) throws -> ExitCode {
        let directory = try context.value(of: CommonArguments.contentDirectory)
        let result = ContentPack.load(from: URL(fileURLWithPath: directory), displayPath: directory)
        let report = ContentCheckReport(result)
        if context.isSet(jsonFlag) {
            context.print(report.json.jsonString(.prettyPrinted))
        } else {
            context.print(report.text, terminator: "")
        }
        return report.exitCode == 0 ? .success : .failure
    }
}
