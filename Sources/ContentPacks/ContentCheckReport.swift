import GameWorld
import ParleyJSON

/// What `parley content check` prints for a loaded pack, as text or as JSON.
///
/// Text is one line per diagnostic (errors, then warnings) and a summary line:
///
/// ```
/// Content/npcs/mira.json: $.inventory[2].item: unknown item "silver_swrod" (did you mean "silver_sword"?)
/// Content: 7 locations, 6 NPCs, 28 items; 1 error, 0 warnings
/// ```
///
/// JSON is one document:
/// `{"pack", "ok", "worldId", "contentHash", "counts": {locations, npcs, items, errors, warnings},
/// "diagnostics": [{severity, file, path, message, hint?, line?, column?}]}`.
///
/// A pack with an evaluation corpus (`eval/*.jsonl`, `EvalCorpus`) has the corpus's problems listed and counted with
/// the pack's (on `file:line`); an error in the corpus fails the check like one in the pack.
public struct ContentCheckReport: Sendable, Hashable {
    /// The load result reported on.
    public var result: ContentLoadResult
    /// The problems of the pack's evaluation corpus; empty when it has none, or no corpus.
    public var corpusDiagnostics: [ContentDiagnostic] = []

    /// A report on a load result.
    ///
    /// - Parameter result: What `ContentPack.load` returned.
    public init(_ result: ContentLoadResult) {
        self.result = result
    }

    /// A report on a load result and the pack's evaluation corpus.
    ///
    /// - Parameters:
    ///   - result: What `ContentPack.load` returned.
    ///   - corpus: What `EvalCorpus.load` returned.
    public init(_ result: ContentLoadResult, corpus: EvalCorpus) {
        self.result = result
        corpusDiagnostics = corpus.diagnostics
    }

    /// Every diagnostic, the pack's and then the corpus's, errors first.
    public var diagnostics: [ContentDiagnostic] {
        let all = result.diagnostics + corpusDiagnostics
        return all.filter { $0.severity == .error } + all.filter { $0.severity == .warning }
    }

    private var errorCount: Int { diagnostics.count { $0.severity == .error } }

    /// The exit status the checker uses: 1 when there is an error, 0 otherwise.
    public var exitCode: Int32 { errorCount > 0 ? 1 : 0 }

    /// `Content: 7 locations, 6 NPCs, 28 items; 0 errors, 1 warning`.
    public var summary: String {
        let counts = result.counts
        let name = result.displayPath.isEmpty ? "." : result.displayPath
        return "\(name): \(Self.count(counts.locations, "location")), \(Self.count(counts.npcs, "NPC")), "
            + "\(Self.count(counts.items, "item")); \(Self.count(errorCount, "error")), "
            + "\(Self.count(diagnostics.count - errorCount, "warning"))"
    }

    /// Every diagnostic on its own line, then the summary; ends with a newline.
    public var text: String {
        (diagnostics.map(\.description) + [summary]).map { $0 + "\n" }.joined()
    }

    /// The report as one JSON document (see the type's description).
    public var json: JSONValue {
        var counts = JSONObject()
        counts["locations"] = .integer(result.counts.locations)
        counts["npcs"] = .integer(result.counts.npcs)
        counts["items"] = .integer(result.counts.items)
        counts["errors"] = .integer(errorCount)
        counts["warnings"] = .integer(diagnostics.count - errorCount)
        var document = JSONObject()
        document["pack"] = .string(result.displayPath.isEmpty ? "." : result.displayPath)
        document["ok"] = .bool(errorCount == 0)
        document["worldId"] = result.pack.map { .string($0.worldID) } ?? .null
        document["contentHash"] = result.pack.map { .string($0.contentHash.hex) } ?? .null
        document["counts"] = .object(counts)
        document["diagnostics"] = .array(diagnostics.map(Self.json(for:)))
        return .object(document)
    }

    private static func json(for diagnostic: ContentDiagnostic) -> JSONValue {
        var object = JSONObject()
        object["severity"] = .string(diagnostic.severity.rawValue)
        object["file"] = .string(diagnostic.file)
        object["path"] = .string(diagnostic.path)
        object["message"] = .string(diagnostic.message)
        if let hint = diagnostic.hint { object["hint"] = .string(hint) }
        if let line = diagnostic.line { object["line"] = .integer(line) }
        if let column = diagnostic.column { object["column"] = .integer(column) }
        return .object(object)
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
