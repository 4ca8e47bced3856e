import CommandLineKit
import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyHost
import ParleyJSON
import SaveGames

/// `parley saves`: list, show, delete and export save games.
enum SavesCommand {
    /// `export --out FILE`: where to write the save, instead of printing it.
    static let outOption = Option.value(
        "out", valueName: "FILE", type: .nonEmptyString(example: "save.json"),
        help: "Write to FILE instead of printing.")

    /// The `saves` group; bare `parley saves` lists.
    static let command = Command(
        "saves", abstract: "List, show, delete and export save games.", options: [CommonOptions.saves.option],
        subcommands: [
            Command("list", abstract: "List the saves.", options: [CommonOptions.saves.option], handler: list),
            Command(
                "show", abstract: "Show a save's details.", arguments: [CommonArguments.slot.argument],
                options: [CommonOptions.saves.option], handler: show),
            Command(
                "delete", abstract: "Delete a save.", arguments: [CommonArguments.slot.argument],
                options: [CommonOptions.saves.option], handler: delete),
            Command(
                "export", abstract: "Export a save as JSON, with its annotated transcripts.",
                arguments: [CommonArguments.slot.argument],
                options: [CommonOptions.saves.option, outOption.option],
                handler: export),
        ],
        handler: list)

    /// The store the options name: `--saves` (or its alias `--folder`), else `PARLEY_SAVES`, else `SaveGames`.
    ///
    /// The commands that use it read saves (or delete one), so the folder must exist: a missing one is an error
    /// rather than an empty list, which would hide a mistyped name.
    ///
    /// - Throws: `SavesFolderError` when the folder does not exist or is a file.
    static func store(_ context: CommandContext) throws -> SaveGameStore {
        let folder = try context.value(of: CommonOptions.saves)
        try SavesFolderError.check(folder)
        return SaveGameStore(folder: URL(fileURLWithPath: folder))
    }

    @Sendable static func list(_ context: CommandContext) async throws -> ExitCode {
        let saves = try store(context)
        let slots = saves.list()
        guard !slots.isEmpty else {
            context.print("No saved games in \(saves.folder.relativePath).")
            return .success
        }
        for summary in slots {
            if let metadata = summary.metadata {
                context.print(
                    [
                        summary.slot, metadata.label, metadata.updatedAt.formatted(.iso8601), metadata.locationName,
                        GameHost.format(metadata.playTime),
                    ].joined(separator: "  "))
            } else {
                context.print("\(summary.slot)  unreadable: \(summary.error.map { "\($0)" } ?? "unknown error")")
            }
        }
        return .success
    }

    @Sendable static func show(_ context: CommandContext) async throws -> ExitCode {
        let slot = try context.value(of: CommonArguments.slot)
        let file = try store(context).open(slot: slot, access: .readOnly)
        let metadata = try file.metadata()
        context.print(
            """
            Slot:          \(file.slot)
            Label:         \(metadata.label)
            World:         \(metadata.worldTitle) (\(metadata.worldID), content \(metadata.contentHash))
            Player:        \(metadata.playerName), at \(metadata.locationName)
            Play time:     \(GameHost.format(metadata.playTime))
            Created:       \(metadata.createdAt.formatted(.iso8601))
            Updated:       \(metadata.updatedAt.formatted(.iso8601))
            Schema:        \(metadata.schemaVersion), written by Parley \(metadata.parleyVersion)
            """)
        let lengths = try file.conversationLengths().sorted { $0.key.rawValue < $1.key.rawValue }
        context.print(
            "Conversations: "
                + (lengths.isEmpty ? "none" : lengths.map { "\($0.key) (\($0.value) entries)" }.joined(separator: ", "))
        )
        let story = try file.story()
        context.print("Story:         " + (story.isEmpty ? "no progress yet" : story.description))
        context.print("Feedback:      \(try file.feedback().count) reports")
        return .success
    }

    @Sendable static func delete(_ context: CommandContext) async throws -> ExitCode {
        let slot = try context.value(of: CommonArguments.slot)
        let saves = try store(context)
        // Deleting writes the folder: not while a game uses it (that game could be writing this very slot).
        let lock = try saves.lockFolder()
        defer { lock.release() }
        try saves.delete(slot: slot)
        context.print("Deleted \(slot).")
        return .success
    }

    @Sendable static func export(_ context: CommandContext) async throws -> ExitCode {
        let slot = try context.value(of: CommonArguments.slot)
        let out = try context.value(of: outOption)
        let json = try store(context).export(slot: slot).jsonString(.prettyPrinted)
        if let out {
            try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
            context.print("Exported \(slot) to \(out).")
        } else {
            context.print(json)
        }
        return .success
    }
}

/// `parley transcript <slot> <npc> [--json]`.
enum TranscriptCommand {
    /// `--json`: Apple's transcript JSON instead of text.
    static let jsonFlag = Option.flag("json", help: "Print Apple's transcript JSON instead of text.")

    /// `--annotated`: with `--json`, the annotated transcript.
    static let annotatedFlag = Option.flag(
        "annotated", help: "With --json: print the annotated transcript (transcript and annotations).")

    static let command = Command(
        "transcript", abstract: "Show an NPC's conversation in a save, with the game context at each turn.",
        arguments: [CommonArguments.slot.argument, CommonArguments.npc.argument],
        options: [CommonOptions.saves.option, jsonFlag, annotatedFlag],
        handler: run)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let slot = try context.value(of: CommonArguments.slot)
        let npc = try context.value(of: CommonArguments.npc)
        let file = try SavesCommand.store(context).open(slot: slot, access: .readOnly)
        guard let annotated = try file.transcript(npc: npc) else {
            let known = try file.conversationLengths().keys.map(\.rawValue).sorted()
            context.printError(
                "parley: \(slot) has no conversation with \(npc)."
                    + (known.isEmpty ? "" : " Conversations: \(known.joined(separator: ", ")).")
            )
            return .failure
        }
        if context.isSet(jsonFlag) {
            context.print(
                context.isSet(annotatedFlag)
                    ? annotated.jsonString(prettyPrinted: true) : annotated.transcript.jsonString(prettyPrinted: true))
        } else {
            context.print(
                TranscriptFormatter.format(annotated, npcName: annotated.annotations[.npcName] ?? npc.rawValue))
        }
        return .success
    }
}
