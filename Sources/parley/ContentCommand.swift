import CommandLineKit
import ContentPacks
import Foundation
import GameWorld
import ParleyJSON
import ParleyModels

/// `parley content`: tools for content packs.
enum ContentCommand {
    /// The `content` group.
    static let command = Command(
        "content", abstract: "Work with content packs.", subcommands: [check, lexicon])

    /// `--json`: one JSON document instead of text.
    static let jsonFlag = Option.flag("json", help: "Print one JSON document with the diagnostics and counts.")

    /// `parley content check [DIR | --content DIR] [--json]`.
    static let check = Command(
        "check", abstract: "Check a content pack and report every problem in it.",
        discussion: """
            Prints each problem as 'file: JSON path: problem (hint)', errors first, then warnings, and a summary.
            Also checks the evaluation corpus (DIR/eval/*.jsonl) when there is one, naming each bad line as
            'file:line: JSON path: problem'.
            Exits with 1 when the pack has an error, 0 otherwise (warnings do not fail the check).
            """,
        arguments: [CommonArguments.packDirectory.argument],
        options: [CommonOptions.content.option, jsonFlag],
        handler: runCheck)

    @Sendable static func runCheck(_ context: CommandContext) throws -> ExitCode {
        let directory = try context.packDirectory()
        let packURL = URL(fileURLWithPath: directory)
        let result = ContentPack.load(from: packURL, displayPath: directory)
        let corpus = EvalCorpus.load(
            from: packURL, displayPath: directory, world: result.pack?.initialState.world,
            builtInRules: ModelChoice.scripted(seed: 0).builtInRules)
        let report = ContentCheckReport(result, corpus: corpus)
        if context.isSet(jsonFlag) {
            context.print(report.json.jsonString(.prettyPrinted))
        } else {
            context.print(report.text, terminator: "")
        }
        return report.exitCode == 0 ? .success : .failure
    }

    /// `parley content lexicon [DIR | --content DIR]`.
    static let lexicon = Command(
        "lexicon", abstract: "Print the words a pack's players speak: its whole lexicon, as JSON.",
        discussion: """
            Prints the lexicon the scripted model reads lines with: the built-in English one, with what the pack's
            lexicon.json adds, or the pack's own. The output is a whole lexicon.json (no "extends"): a start for a
            translation. See docs/modding.md, "The lexicon".
            Exits with 1 when the pack does not load (its problems are printed to stderr, as by content check).
            """,
        arguments: [CommonArguments.packDirectory.argument],
        options: [CommonOptions.content.option],
        handler: runLexicon)

    @Sendable static func runLexicon(_ context: CommandContext) throws -> ExitCode {
        let directory = try context.packDirectory()
        let result = ContentPack.load(from: URL(fileURLWithPath: directory), displayPath: directory)
        guard let pack = result.pack else {
            for diagnostic in result.diagnostics where diagnostic.severity == .error {
                context.printError(diagnostic.description)
            }
            context.printError("error: \(directory) does not load; run parley content check \(directory)")
            return .failure
        }
        var document = pack.world.lexicon.jsonValue
        if case .object(var object) = document {
            object = JSONObject(
                [("$schema", .string("schema/lexicon.schema.json"))] + object.map { ($0.key, $0.value) })
            document = .object(object)
        }
        context.print(document.jsonString(.prettyPrinted))
        return .success
    }
}
