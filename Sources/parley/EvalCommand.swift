import CommandLineKit
import ContentPacks
import Foundation
import GameWorld
import ParleyBasics
import ParleyEngine
import ParleyEvaluation
import ParleyModels

/// `parley eval [DIR | --content DIR]`: runs a content pack's evaluation corpus and reports how well its NPCs understand.
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

    /// `--npc ID`, repeatable: only the cases of these NPCs.
    static let npcOption = Option.value(
        "npc", valueName: "ID", type: .npcID, help: "Run only this NPC's cases (may be given more than once).")

    /// `--file NAME`, repeatable: only the cases of these corpus files.
    static let fileOption = Option.value(
        "file", valueName: "NAME", type: .string,
        help: "Run only the cases of this file of DIR/eval/, e.g. mira or mira.jsonl (may be given more than once).")

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
            --npc and --file run only some cases (an NPC's, a file's; both: the cases of both).
            Exits with 1 when the corpus has errors, when any case made a false claim, an unasked action or an
            empty reply, or when the accuracy is below --min-accuracy.
            """,
        arguments: [CommonArguments.packDirectory.argument],
        options: [
            CommonOptions.content.option, npcOption.option, fileOption.option, CommonOptions.model.option,
            CommonOptions.seed.option, jsonFlag, minimumAccuracy.option, concurrency.option,
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
        let directory = try context.packDirectory()
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
        let selected: [EvalCase]
        switch selection(
            of: corpus, npcs: context.arguments.values(npcOption.name),
            files: context.arguments.values(fileOption.name), world: pack.initialState.world)
        {
        case .success(let cases): selected = cases
        case .failure(let problem):
            context.printError("parley: \(problem.message)")
            return .failure
        }
        let runner = EvalRunner(
            pack: pack, models: try await choice.makeProvider(voice: voice), builtInRules: choice.builtInRules,
            concurrency: cases, reusesModels: true)
        let report = await Game.$turnTimeout.withValue(turnTimeout) { await runner.run(selected) }
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

    /// Why `--npc` or `--file` selected nothing.
    struct SelectionProblem: Error {
        /// What is wrong and what to write instead.
        let message: String
    }

    /// The cases `--npc` and `--file` keep: those of any of the NPCs (all when none is given) and of any of the files
    /// (all when none is given). A file is named as in `DIR/eval/`, with or without `.jsonl`.
    ///
    /// - Returns: The cases, in corpus order; or what is wrong: an NPC the pack lacks or a file the corpus lacks
    ///   (with the closest name), or a selection with no case.
    static func selection(
        of corpus: EvalCorpus, npcs: [String], files: [String], world: World
    ) -> Result<[EvalCase], SelectionProblem> {
        let ids = world.npcs.keys.map(\.rawValue).sorted()
        for npc in npcs where world.npcs[NPCID(npc)] == nil {
            let guess = Suggestions.didYouMean(npc, in: ids).map { " (\($0))" } ?? ""
            return .failure(
                SelectionProblem(
                    message: "the pack has no NPC \"\(npc)\"\(guess); its NPCs: \(ids.joined(separator: ", "))."))
        }
        func stem(_ file: String) -> String {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            return name.hasSuffix(EvalCorpus.fileExtension)
                ? String(name.dropLast(EvalCorpus.fileExtension.count)) : name
        }
        let stems = corpus.files.map(stem)
        for file in files where !stems.contains(stem(file)) {
            let guess = Suggestions.didYouMean(stem(file), in: stems).map { " (\($0))" } ?? ""
            return .failure(
                SelectionProblem(
                    message: "the corpus has no file \"\(file)\"\(guess); its files: "
                        + stems.map { $0 + EvalCorpus.fileExtension }.joined(separator: ", ") + "."))
        }
        let wantedFiles = Set(files.map(stem))
        let selected = corpus.cases.filter { evalCase in
            (npcs.isEmpty || npcs.contains(evalCase.npc.rawValue))
                && (wantedFiles.isEmpty || wantedFiles.contains(stem(evalCase.file)))
        }
        guard !selected.isEmpty else {
            let asked = (npcs.map { "--npc \($0)" } + files.map { "--file \($0)" }).joined(separator: " ")
            return .failure(SelectionProblem(message: "no case of the corpus matches \(asked)."))
        }
        return .success(selected)
    }
}
