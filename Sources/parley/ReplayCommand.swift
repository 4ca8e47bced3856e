import CommandLineKit
import ContentPacks
import Foundation
import GameWorld
import ParleyEngine
import ParleyEvaluation
import ParleyJSON
import ParleyModels
import SaveGames

/// `parley recordings export` and `parley replay`.
enum RecordingsCommand {
    /// `export --out FILE`: where to write the recordings, instead of printing them.
    static let outOption = Option.value(
        "out", valueName: "FILE", type: .nonEmptyString(example: "recordings.json"),
        help: "Write to FILE instead of printing.")

    static let command = Command(
        "recordings", abstract: "Export the turns recorded in a save.",
        subcommands: [
            Command(
                "export", abstract: "Write a save's recorded turns as a JSON array (docs/recording-format.md).",
                arguments: [CommonArguments.slot.argument],
                options: [CommonOptions.saves.option, outOption.option],
                handler: export)
        ])

    /// The recordings of a slot, oldest first.
    static func recordings(slot: String, context: CommandContext) throws -> [TurnRecording] {
        let file = try SavesCommand.store(context).open(slot: slot, access: .readOnly)
        return try file.turnRecordings()
    }

    @Sendable static func export(_ context: CommandContext) async throws -> ExitCode {
        let slot = try context.value(of: CommonArguments.slot)
        let out = try context.value(of: outOption)
        let json = JSONValue.array(try recordings(slot: slot, context: context).map(\.jsonValue)).jsonString(
            .prettyPrinted)
        if let out {
            try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
            context.print("Exported the recordings of \(slot) to \(out).")
        } else {
            context.print(json)
        }
        return .success
    }
}

enum ReplayCommand {
    /// `SOURCE`: a save slot or a file written by `parley recordings export`.
    static let sourceArgument = Argument.value(
        "SOURCE", type: .nonEmptyString(example: "autosave"), help: "A save slot, or a recordings JSON file.")

    /// `--all`: every turn, not only the changed ones.
    static let allFlag = Option.flag("all", help: "Show every turn, not only the ones that differ.")

    static let command = Command(
        "replay", abstract: "Replay recorded turns against a model and report what changed.",
        discussion: """
            SOURCE is a save slot or a file written by 'parley recordings export'. Each recorded input is run again
            from the same game state and the same earlier conversation. Exits with 0 when every turn came out the
            same, 1 when any changed or failed: usable in CI to see what a model update does to your NPCs.
            """,
        arguments: [sourceArgument.argument],
        options: [
            CommonOptions.model.option, CommonOptions.content.option, CommonOptions.seed.option,
            CommonOptions.saves.option,
            allFlag,
            CommonOptions.turnTimeout.option, CommonOptions.voice.option,
            CommonOptions.firstWordsDeadline.option,
        ],
        handler: run)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        // Usage errors first, before any file is read or server contacted.
        let choice = try context.modelChoice()
        let voice = try context.voiceSettings()
        let turnTimeout = try context.value(of: CommonOptions.turnTimeout)
        let directory = try context.value(of: CommonOptions.content)
        let source = try context.value(of: sourceArgument)
        let recordings: [TurnRecording]
        if FileManager.default.fileExists(atPath: source), source.hasSuffix(".json") {
            recordings = try TurnRecording.recordings(
                exported: try Data(contentsOf: URL(fileURLWithPath: source)), file: source)
        } else {
            recordings = try RecordingsCommand.recordings(slot: source, context: context)
        }
        let loaded = ContentPack.load(from: URL(fileURLWithPath: directory), displayPath: directory)
        guard let pack = loaded.pack, !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
            context.printError(
                "parley: the content pack in \(directory) has errors; check it with 'parley content check'.")
            return .failure
        }
        let models = try await choice.makeProvider(voice: voice)
        let showAll = context.isSet(allFlag)
        let report = await Game.$turnTimeout.withValue(turnTimeout) {
            await Replay.run(recordings, pack: pack, models: models) { turn in
                guard showAll || turn.status != .same else { return }
                context.print("Turn \(turn.number) (\(turn.npc)) \(turn.status.rawValue): \(turn.input)")
                context.print("  recorded: \(turn.recordedText)" + (turn.recordedVoicing.map { " [\($0)]" } ?? ""))
                if !turn.recordedCalls.isEmpty {
                    context.print("            calls: \(turn.recordedCalls.joined(separator: "; "))")
                }
                context.print("  replayed: \(turn.replayedText)" + (turn.replayedVoicing.map { " [\($0)]" } ?? ""))
                if !turn.replayedCalls.isEmpty {
                    context.print("            calls: \(turn.replayedCalls.joined(separator: "; "))")
                }
            }
        }
        context.print("Replayed against \(choice): \(report.summary)")
        return report.changed == 0 && report.failed == 0 ? .success : .failure
    }
}
