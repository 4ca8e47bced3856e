import CommandLineKit
import Foundation
import GameWorld
import ParleyEngine
import ParleyModels

/// `parley eval [DIR]`: runs a content pack's evaluation corpus and reports how well its NPCs understand.
enum EvalCommand {
    /// `--json`: the report as one JSON document.
    static let jsonFlag = Option.flag("json", help: "Print the report as one JSON document (see docs/modding.md).")

    /// `--min-accuracy P`: the accuracy below which the command fails.
    static let minimumAccuracy = Option.value(
        "min-accuracy", valueName: "P", type: .accuracy,
        help: "Exit with 1 when fewer cases pass: a fraction (0.95) or a percentage (95 or 95%).")

    /// `--concurrency N`: how many cases run at once; 4 with the scripted model, 1 with a server (whose slots
    /// would otherwise be shared, and its timings with them).
    static let concurrency = Option.value(
        "concurrency", valueName: "N", type: .integer(in: 1...64, example: 2),
        help: "How many cases run at once (default: 4 with the scripted model, 1 with a server).")

    static let command = Command(
        "eval", abstract: "Measure how well NPCs understand players: run the evaluation corpus in DIR/eval/.",
        discussion: """
            Each case (one JSON object per line of DIR/eval/*.jsonl) starts a fresh game, talks to its NPC, says
            its earlier lines and then its line, and checks what follows: the answering rule and its intent
            (scripted model only; otherwise reported as skipped), tool calls, the pending offer, the game state,
            and words the reply must or must not contain; every case is also checked for false claims, unasked
            actions (an offer, gift or trade the case did not ask for) and empty replies. Prints each failure, the
            accuracy per kind, per NPC, per split (tuning, heldOut) and overall, and the counts of false claims,
            unasked actions, empty replies and clarifying questions.
            Exits with 1 when the corpus has errors, when any case made a false claim, an unasked action or an
            empty reply, or when the accuracy is below --min-accuracy.
            """,
        arguments: [CommonArguments.contentDirectory.argument],
        options: [
            CommonOptions.model.option, CommonOptions.seed.option, jsonFlag, minimumAccuracy.option, concurrency.option,
            CommonOptions.turnTimeout.option, CommonOptions.voice.option,
            CommonOptions.firstWordsDeadline.option,
        ],
        handler: run)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        // Usage errors first, before any file is read or server contacted.
        let choice = try context.modelChoice()
        let voice = try context.voiceSettings()
        let turnTimeout = try context.value(of: CommonOptions.turnTimeout)
        let threshold = try context.value(of: minimumAccuracy)
        let cases = try context.value(of: concurrency) ?? (choice.isServer ? 1 : 4)
        let directory = try context.value(of: CommonArguments.contentDirectory)
        let packURL = URL(fileURLWithPath: directory)
        let loaded = ContentPack.load(from: packURL, displayPath: directory)
        guard let pack = loaded.pack, !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
            context.printError(ContentCheckReport(loaded).text, terminator: "")
            context.printError("parley: fix the content pack's errors before evaluating it.")
            return .failure
        }
        guard EvalCorpus.exists(in: packURL) else {
            context.printError(
                "parley: no evaluation corpus in \(directory)/\(EvalCorpus.folderName) "
                    + "(see docs/modding.md, \"Evaluating your NPCs\").")
            return .failure
        }
        let corpus = EvalCorpus.load(
            from: packURL, displayPath: directory, world: pack.initialState.world, builtInRules: choice.builtInRules)
        for diagnostic in corpus.diagnostics { context.printError(diagnostic.description) }
        guard !corpus.hasErrors else {
            context.printError("parley: fix the evaluation corpus's errors before running it.")
            return .failure
        }
        guard !corpus.cases.isEmpty else {
            context.printError("parley: the evaluation corpus in \(directory)/\(EvalCorpus.folderName) has no cases.")
            return .failure
        }
        let runner = EvalRunner(
            pack: pack, models: try await choice.makeProvider(voice: voice), builtInRules: choice.builtInRules,
            concurrency: cases, reusesModels: true)
        let report = await Game.$turnTimeout.withValue(turnTimeout) { await runner.run(corpus.cases) }
        if context.isSet(jsonFlag) {
            context.print(report.json.jsonString(.prettyPrinted))
        } else {
            context.print(report.text, terminator: "")
        }
        var failed = false
        if !report.isClean {
            context.printError(
                "parley: NPCs did what they must never do: \(report.falseClaims) false claims, "
                    + "\(report.unaskedActions) unasked actions, \(report.emptyReplies) empty replies "
                    + "(each is a failure of its case).")
            failed = true
        }
        if let threshold, report.overall.accuracy < threshold {
            context.printError(
                "parley: accuracy \(EvalReport.percent(report.overall.accuracy)) is below the minimum "
                    + "\(EvalReport.percent(threshold)).")
            failed = true
        }
        return failed ? .failure : .success
    }
}
