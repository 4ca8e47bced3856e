import CommandLineKit
import Foundation
import GameWorld
import LanguageModels
import SaveGames

/// `parley feedback`: the feedback reports kept in saves.
enum FeedbackCommand {
    /// `--slot SLOT`: only the reports in this save; every save's when not given.
    static let slotOption = Option.value(
        "slot", valueName: "SLOT", type: .slotName, help: "Only this save (default: every save).")

    /// `ID` of `show`: a report's id, or the start of one.
    static let idArgument = Argument.value(
        "ID", type: .nonEmptyString(example: "3f2a"), help: "The report's id (a prefix will do).")

    /// `[ID]` of `export`: a report's id, or the start of one; `--all` instead exports every report.
    static let optionalIDArgument = Argument.optionalValue(
        "ID", type: .nonEmptyString(example: "3f2a"), help: "The report's id (a prefix will do).")

    /// `export --all`: every report.
    static let allFlag = Option.flag("all", help: "Export every report.")

    /// `export --out DIR`: the folder to write the reports to.
    static let outOption = Option.value(
        "out", valueName: "DIR", type: .nonEmptyString(example: "reports"),
        help: "The folder to write to (<id>.json in it, for each report).")

    static let command = Command(
        "feedback", abstract: "List, show and export the feedback reports kept in saves.",
        options: [CommonOptions.saves.option, slotOption.option],
        subcommands: [
            Command(
                "list", abstract: "List the reports.", options: [CommonOptions.saves.option, slotOption.option],
                handler: list),
            Command(
                "show", abstract: "Show a report.",
                arguments: [idArgument.argument],
                options: [CommonOptions.saves.option, slotOption.option], handler: show),
            Command(
                "export", abstract: "Write reports as .json files, one per report, in the documented format.",
                arguments: [optionalIDArgument.argument],
                options: [CommonOptions.saves.option, slotOption.option, allFlag, outOption.option],
                handler: export),
        ],
        handler: list)

    /// Every report in the saves the options name, newest first, without duplicates.
    static func reports(_ context: CommandContext) throws -> [(slot: String, attachment: FeedbackAttachment)] {
        let store = try SavesCommand.store(context)
        let slots =
            try context.value(of: slotOption).map { [$0] } ?? store.list().filter { $0.metadata != nil }.map(\.slot)
        var seen = Set<String>()
        var result: [(String, FeedbackAttachment)] = []
        for slot in slots {
            let file = try store.open(slot: slot, access: .readOnly)
            for saved in try file.feedback() where seen.insert(saved.id).inserted {
                result.append((slot, try FeedbackAttachment(data: Data(saved.json.utf8))))
            }
        }
        return result.sorted { $0.1.createdAt > $1.1.createdAt }
    }

    static func find(
        _ id: String, in reports: [(slot: String, attachment: FeedbackAttachment)]
    ) throws -> FeedbackAttachment {
        let matches = reports.filter { $0.attachment.id.lowercased().hasPrefix(id.lowercased()) }
        guard matches.count == 1 else {
            throw UsageError(
                matches.isEmpty ? "no feedback report has the id \(id)" : "\(matches.count) reports start with \(id)",
                hint: "see 'parley feedback list'")
        }
        return matches[0].attachment
    }

    @Sendable static func list(_ context: CommandContext) async throws -> ExitCode {
        let all = try reports(context)
        if all.isEmpty { context.print("No feedback reports.") }
        for (slot, report) in all {
            let issue = report.issues.first.map { "\($0.category): \(($0.explanation ?? "").prefix(70))" } ?? ""
            context.print(
                "\(report.id.prefix(8))  \(report.createdAt.formatted(.iso8601))  \(slot)  \(report.context[.npc] ?? "-")  \(issue)"
            )
        }
        return .success
    }

    @Sendable static func show(_ context: CommandContext) async throws -> ExitCode {
        let report = try find(try context.value(of: idArgument), in: try reports(context))
        context.print(String(decoding: report.jsonData(), as: UTF8.self))
        return .success
    }

    @Sendable static func export(_ context: CommandContext) async throws -> ExitCode {
        guard let out = try context.value(of: outOption) else { throw UsageError("--out DIR is required") }
        let id = try context.value(of: optionalIDArgument)
        let all = try reports(context)
        let chosen: [FeedbackAttachment]
        if context.isSet(allFlag) {
            chosen = all.map(\.attachment)
        } else if let id {
            chosen = [try find(id, in: all)]
        } else {
            throw UsageError("give a report's ID or --all")
        }
        // Each file is named after its report's id, which comes from a save and may be anything (`../../x`):
        // only the id's letters, digits, `-` and `_` make the name, so every file lands inside --out.
        let folder = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = ExportFileNames.fileNames(for: chosen.map(\.id), fileExtension: "json")
        for (report, name) in zip(chosen, names) {
            // `.atomic` writes a new file (created exclusively) and renames it over the name: a link already at
            // that name is replaced, never followed.
            try report.jsonData().write(to: folder.appendingPathComponent(name), options: .atomic)
        }
        context.print("Exported \(chosen.count) report\(chosen.count == 1 ? "" : "s") to \(out).")
        for (report, name) in zip(chosen, names) where name != "\(report.id).json" {
            context.print("  \(report.id) is in \(name)")
        }
        return .success
    }
}
