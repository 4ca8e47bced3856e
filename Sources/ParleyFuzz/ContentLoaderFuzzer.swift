import ContentPacks
import Foundation
import GameWorld

/// Fuzzes the content loader with seeded mutations of the shipped pack's files, in memory
/// (`ContentPack.load(fileData:)`): one or two files mutated per input, sometimes a file left out or a stray NPC
/// file added.
///
/// Each input must give a pack, or no pack and at least one error; every diagnostic must name a file of the pack,
/// a JSON path, and a problem in words.
///
/// ```swift
/// let summary = ContentLoaderFuzzer.run(iterations: 5_000, seed: 1)
/// ```
public enum ContentLoaderFuzzer {
    /// The words inserted besides JSON's: the pack's member names and ids.
    static let words = [
        #""id""#, #""name""#, #""location""#, #""inventory""#, #""item""#, #""quantity""#, #""price""#, #""gold""#,
        #""exits""#, #""npcs""#, #""trade""#, #""dialogue""#, #""rules""#, #""when""#, #""reply""#, #""tags""#,
        #""quest""#, #""start""#, #""goal""#, #""lantern""#, #""mira""#, #""market_square""#, "-1", "0", "99999999999",
    ]

    /// Runs the fuzzer.
    ///
    /// - Parameters:
    ///   - iterations: How many inputs to try.
    ///   - seed: The seed; the same seed gives the same inputs.
    /// - Returns: What happened.
    public static func run(iterations: Int, seed: UInt64) -> FuzzSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = FuzzSummary(target: "content loader", seed: seed)
        var mutator = Mutator(seed: seed, words: words)
        let pack = FuzzCorpus.contentPack()
        let paths = pack.keys.sorted()
        for iteration in 0..<iterations {
            summary.iterations += 1
            var files = pack
            var changed: [String] = []
            for _ in 0..<(mutator.oneIn(4) ? 2 : 1) {
                let path = paths[mutator.below(paths.count)]
                changed.append(path)
                if mutator.oneIn(40) {
                    files[path] = nil
                } else {
                    files[path] = mutator.mutate(files[path] ?? [])
                }
            }
            if mutator.oneIn(30) {
                let source = paths.filter { $0.hasPrefix("npcs/") }
                if let copied = source.isEmpty ? nil : source[mutator.below(source.count)] {
                    files["npcs/stray \(iteration).json"] = mutator.mutate(pack[copied] ?? [])
                    changed.append("npcs/stray \(iteration).json")
                }
            }
            let result = ContentPack.load(fileData: files, displayPath: "Content")
            let excerpt = changed.joined(separator: ", ") + ": " + FuzzFinding.excerpt(files[changed[0]] ?? [])
            if let problem = problem(with: result, files: Set(files.keys)) {
                summary.record(.init(iteration: iteration, problem: problem, excerpt: excerpt))
            } else if result.pack == nil {
                summary.rejected += 1
            } else {
                summary.accepted += 1
            }
        }
        summary.duration = clock.now - start
        return summary
    }

    /// What is wrong with a load result, or `nil`.
    static func problem(with result: ContentLoadResult, files: Set<String>) -> String? {
        let errors = result.diagnostics.filter { $0.severity == .error }
        if result.pack == nil, errors.isEmpty { return "no pack, and no error saying why" }
        if result.pack != nil, !errors.isEmpty { return "a pack despite errors: \(errors[0])" }
        for diagnostic in result.diagnostics {
            if diagnostic.message.trimmingCharacters(in: .whitespaces).isEmpty {
                return "a diagnostic without a message: \(diagnostic)"
            }
            if !diagnostic.path.hasPrefix("$") { return "a diagnostic without a JSON path: \(diagnostic)" }
            let file = diagnostic.file
            guard file == "Content" || file.hasPrefix("Content/") else {
                return "a diagnostic naming a file outside the pack: \(diagnostic)"
            }
            let relative = String(file.dropFirst("Content/".count))
            let required = [ContentPack.worldFileName, ContentPack.itemsFileName, ContentPack.npcsDirectoryName]
            if file != "Content", !files.contains(relative), !required.contains(relative) {
                return "a diagnostic naming a file the pack does not have: \(diagnostic)"
            }
        }
        return nil
    }
}
