import CommandLineKit
import ContentPacks
import Foundation
import GameWorld
import ParleyEngine
import ParleyEvaluation
import ParleyJSON
import ParleyModels

/// `parley test [DIR | --content DIR]`: runs a content pack's conversation test plans.
enum TestCommand {
    /// `--record`: write what the NPCs said into the plans.
    static let recordFlag = Option.flag(
        "record", help: "Write what the NPCs said into each step's saysExactly (after reviewing!).")

    static let command = Command(
        "test", abstract: "Run the conversation test plans in a content pack's tests/ folder.",
        discussion: """
            Each plan (DIR/tests/*.json) starts a fresh game, types its steps, and checks what follows: the NPC's
            words (scripted model only), tool calls, the pending offer, the game state, refused offers and
            feedback reports. Prints each failure with its step; exits with 1 when any plan fails.
            With --model, exact wording (saysExactly) is not checked; says patterns are checked with --voice
            grounded (the default), where the voiced line must keep the planned facts, and not with --voice free.
            """,
        arguments: [CommonArguments.packDirectory.argument],
        options: [
            CommonOptions.content.option, CommonOptions.model.option, CommonOptions.seed.option, recordFlag,
            CommonOptions.turnTimeout.option, CommonOptions.voice.option,
            CommonOptions.firstWordsDeadline.option,
        ],
        handler: run)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        // Usage errors first, before any file is read or server contacted.
        let choice = try context.modelChoice()
        let voice = try context.voiceSettings()
        let turnTimeout = try context.value(of: CommonOptions.turnTimeout)
        let directory = try context.packDirectory()
        let records = context.isSet(recordFlag)
        let loaded = ContentPack.load(from: URL(fileURLWithPath: directory), displayPath: directory)
        guard let pack = loaded.pack, !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
            context.printError(ContentCheckReport(loaded).text, terminator: "")
            context.printError("parley: fix the content pack's errors before testing it.")
            return .failure
        }
        let folder = URL(fileURLWithPath: directory).appendingPathComponent(ConversationTest.folderName)
        let files: [String]
        do {
            files = try ConversationTest.planFiles(in: URL(fileURLWithPath: directory), displayPath: directory)
        } catch {
            context.print("FAIL \(error)")
            context.print("Tests: 0 passed, 1 failed")
            return .failure
        }
        guard !files.isEmpty else {
            context.printError(
                "parley: no test plans in \(directory)/tests (see docs/modding.md, \"Testing your NPCs\").")
            return .failure
        }
        let scripted = if case .scripted = choice { true } else { false }
        let runner = ConversationTestRunner(
            pack: pack, models: try await choice.makeProvider(voice: voice), checksWording: scripted,
            checksSays: voice.mode == .grounded)
        var passed = 0
        var failed = 0
        for file in files {
            let shown = "\(directory)/tests/\(file)"
            let url = folder.appendingPathComponent(file)
            let plan: ConversationTest
            do {
                plan = try ConversationTest(contentsOf: url, file: shown)
            } catch {
                context.print("FAIL \(error)")
                failed += 1
                continue
            }
            let problems = plan.problems(in: pack)
            guard problems.isEmpty else {
                for problem in problems { context.print("FAIL \(problem)") }
                failed += 1
                continue
            }
            let result = await Game.$turnTimeout.withValue(turnTimeout) { await runner.run(plan) }
            if records {
                let json = ConversationTestRunner.rerecorded(result).jsonString(.prettyPrinted)
                try Data((json + "\n").utf8).write(to: url, options: .atomic)
            }
            if result.passed || records {
                passed += 1
                context.print("PASS \(shown): \(plan.name) (\(plan.steps.count) steps)")
            } else {
                failed += 1
                context.print("FAIL \(shown): \(plan.name)")
                for failure in result.failures { context.print("  \(failure)") }
            }
        }
        context.print(
            "Tests: \(passed) passed, \(failed) failed" + (records ? " (recorded)" : ""))
        return failed == 0 ? .success : .failure
    }
}
