import Foundation
import GameWorld
import ParleyBasics

/// A pack's evaluation corpus: the cases of every `DIR/eval/*.jsonl` file, checked against the pack.
///
/// Files are read in name order and their lines in order; blank lines and lines starting with `//` are skipped.
/// Every problem is a `ContentDiagnostic` on `file:line` with the JSON path inside the line's object, errors first:
/// what `EvalCase.read(line:file:number:)` finds, and, given the world, an unknown NPC (with the name it probably
/// meant), item, place, quest or quest stage, a rule the NPC does not have, and an id used twice. `parley content
/// check` reports them with the pack's own; `parley eval` refuses to run a corpus with errors.
///
/// The checks live in `ContentPacks`, beside the content loader, because they need only the world; running the
/// cases needs models and is `EvalRunner`'s, in `ParleyEvaluation`.
public struct EvalCorpus: Sendable, Equatable {
    /// The folder of a pack that holds its corpus.
    public static let folderName = "eval"
    /// The extension of corpus files: JSON Lines.
    public static let fileExtension = ".jsonl"

    /// The cases without errors, in file and line order.
    public var cases: [EvalCase]
    /// Every problem found, errors first, then warnings; within each, in file and line order.
    public var diagnostics: [ContentDiagnostic]
    /// The corpus files read, as shown in messages.
    public var files: [String]

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Whether a pack has an `eval/` folder (or something in its place, which `load` then reports).
    ///
    /// - Parameter pack: The pack's directory.
    /// - Returns: `true` when `DIR/eval` exists.
    public static func exists(in pack: URL) -> Bool {
        ContentFile.exists(at: pack.appendingPathComponent(folderName))
    }

    /// Reads and checks a pack's corpus from its `eval/` folder.
    ///
    /// Only plain files are read (`ContentFile`): a FIFO or a link loop is an error naming what it is.
    ///
    /// - Parameters:
    ///   - pack: The pack's directory.
    ///   - displayPath: How messages name the pack's directory, as the user typed it.
    ///   - world: The pack's world, to check names against; `nil` (a pack with errors) checks only the format.
    ///   - builtInRules: Rules a model answers with besides the NPCs' own (the scripted model's built-in rules), so
    ///     that `expect.rule` may name them.
    /// - Returns: The corpus; no files and no cases when the pack has no `eval/` folder.
    public static func load(
        from pack: URL, displayPath: String, world: World?, builtInRules: DialogueRules = DialogueRules()
    ) -> EvalCorpus {
        let shownFolder = ContentLoader.join(ContentLoader.normalizedDisplayPath(displayPath), folderName)
        let folder = pack.appendingPathComponent(folderName)
        guard ContentFile.exists(at: folder) else { return EvalCorpus(cases: [], diagnostics: [], files: []) }
        var texts: [(name: String, text: String)] = []
        var unreadable: [ContentDiagnostic] = []
        do {
            for name in try ContentFile.entries(of: folder) where name.hasSuffix(fileExtension) {
                do {
                    let bytes = try ContentFile.read(at: folder.appendingPathComponent(name))
                    texts.append((name, String(decoding: bytes, as: UTF8.self)))
                } catch {
                    unreadable.append(
                        ContentDiagnostic(
                            .error, file: shownFolder + "/" + name, path: "$", message: error.problem, hint: error.hint)
                    )
                }
            }
        } catch {
            unreadable.append(
                ContentDiagnostic(.error, file: shownFolder, path: "$", message: error.problem, hint: error.hint))
        }
        var corpus = EvalCorpus(
            files: texts, folder: shownFolder, world: world, builtInRules: builtInRules)
        corpus.diagnostics = (unreadable + corpus.diagnostics).sorted { $0.severity < $1.severity }
        return corpus
    }

    /// Reads and checks a corpus from files held in memory.
    ///
    /// - Parameters:
    ///   - files: Each file's name (`mira.jsonl`) and text, in the order to read them.
    ///   - folder: How messages name the folder (`Content/eval`).
    ///   - world: The world to check names against; `nil` checks only the format.
    ///   - builtInRules: Rules a model answers with besides the NPCs' own.
    public init(
        files: [(name: String, text: String)], folder: String = "Content/eval", world: World?,
        builtInRules: DialogueRules = DialogueRules()
    ) {
        var cases: [EvalCase] = []
        var diagnostics: [ContentDiagnostic] = []
        var firstUse: [String: String] = [:]
        for (name, text) in files.sorted(by: { $0.name < $1.name }) {
            let file = folder.isEmpty ? name : folder + "/" + name
            // A byte order mark that an editor wrote at the start of the file is not part of its first line.
            let text = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !EvalCase.isSkipped(line) {
                let (read, found) = EvalCase.read(line: String(line), file: file, number: index + 1)
                diagnostics += found
                guard let read else { continue }
                var problems: [ContentDiagnostic] = []
                if let first = firstUse[read.id] {
                    problems.append(
                        ContentDiagnostic(
                            .error, file: read.location, path: "$.id", message: "duplicate id \"\(read.id)\"",
                            hint: "it is used first at \(first); ids are unique across the corpus"))
                } else {
                    firstUse[read.id] = read.location
                }
                if let world { problems += Self.problems(of: read, in: world, builtInRules: builtInRules) }
                diagnostics += problems
                if !problems.contains(where: { $0.severity == .error }) { cases.append(read) }
            }
        }
        self.init(cases: cases, diagnostics: diagnostics.sorted { $0.severity < $1.severity }, files: [])
        self.files = files.map { folder.isEmpty ? $0.name : folder + "/" + $0.name }.sorted()
    }

    init(cases: [EvalCase], diagnostics: [ContentDiagnostic], files: [String]) {
        self.cases = cases
        self.diagnostics = diagnostics
        self.files = files
    }

    /// What in a case does not fit the world: the NPC, the start's items and place, the conditions' names, the rule.
    static func problems(of evalCase: EvalCase, in world: World, builtInRules: DialogueRules) -> [ContentDiagnostic] {
        var problems: [ContentDiagnostic] = []
        func unknown(_ kind: String, _ name: String, among names: [String], at path: String) {
            let hint = Suggestions.didYouMean(name, in: names)
            problems.append(
                ContentDiagnostic(
                    .error, file: evalCase.location, path: path, message: "unknown \(kind) \"\(name)\"", hint: hint))
        }
        let npc = world.npcs[evalCase.npc]
        if npc == nil {
            unknown("NPC", evalCase.npc.rawValue, among: world.npcs.keys.map(\.rawValue).sorted(), at: "$.npc")
        }
        let items = world.items.keys.map(\.rawValue).sorted()
        for stack in evalCase.start.inventory?.stacks ?? [] where world.items[stack.item] == nil {
            unknown("item", stack.item.rawValue, among: items, at: "$.start.inventory")
        }
        if let location = evalCase.start.location, world.locations[location] == nil {
            unknown(
                "location", location.rawValue, among: world.locations.keys.map(\.rawValue).sorted(),
                at: "$.start.location")
        }
        for (index, condition) in evalCase.expect.state.enumerated() {
            for reference in condition.unknownReferences(in: world) {
                unknown(
                    reference.kind, reference.name, among: reference.known,
                    at: "$.expect.state[\(index)]")
            }
        }
        if let rule = evalCase.expect.rule, let npc {
            let known = npc.dialogue.rules.map(\.id) + builtInRules.rules.map(\.id)
            if !known.contains(rule) {
                problems.append(
                    ContentDiagnostic(
                        .error, file: evalCase.location, path: "$.expect.rule",
                        message: "\(npc.id) has no dialogue rule \"\(rule)\"",
                        hint: Suggestions.didYouMean(rule, in: known)))
            } else if let intent = evalCase.expect.intent,
                let answering = (npc.dialogue.rules + builtInRules.rules).first(where: { $0.id == rule }),
                !answering.when.intents.isEmpty, !answering.when.intents.contains(intent)
            {
                problems.append(
                    ContentDiagnostic(
                        .warning, file: evalCase.location, path: "$.expect.intent",
                        message: "the rule \"\(rule)\" does not answer \(intent)",
                        hint: "it answers " + answering.when.intents.map(\.rawValue).joined(separator: ", ")))
            }
        }
        return problems
    }
}
