import ContentPacks
import Foundation
import GameWorld
import ParleyFuzz
import ScriptedModel

/// `parley-bench fuzz`: the long run of the seeded fuzzers whose fast slice runs in the test suite.
enum FuzzRun {
    /// Runs every fuzzer; the slow ones (a file or an HTTP request per input) get a share of the iterations.
    ///
    /// - Parameters:
    ///   - iterations: Inputs for the fast fuzzers (decoders, the SSE parser).
    ///   - seed: The seed.
    /// - Returns: Whether every fuzzer passed.
    static func run(iterations: Int, seed: UInt64) async throws -> Bool {
        report("## Fuzzing (seed \(seed))")
        report("")
        var summaries: [FuzzSummary] = []
        summaries.append(TranscriptDecoderFuzzer.run(iterations: iterations, seed: seed))
        report("- " + summaries.last!.description)
        summaries.append(SSEParserFuzzer.run(iterations: iterations, seed: seed))
        report("- " + summaries.last!.description)
        summaries.append(ContentLoaderFuzzer.run(iterations: max(1, iterations / 10), seed: seed))
        report("- " + summaries.last!.description)
        summaries.append(try SaveLoaderFuzzer.run(iterations: max(1, iterations / 10), seed: seed))
        report("- " + summaries.last!.description)
        summaries.append(try await SaveTamperFuzzer.run(iterations: max(1, iterations / 50), seed: seed))
        report("- " + summaries.last!.description)
        summaries.append(try await ModelStreamFuzzer.run(iterations: max(1, iterations / 20), seed: seed))
        report("- " + summaries.last!.description)
        // The HTTP API: a request each, four clients at once, over one server and its save folder.
        summaries.append(try await HTTPAPIFuzzer.run(requests: max(1, iterations / 5), clients: 4, seed: seed))
        report("- " + summaries.last!.description)
        // The restore differential: a game of 60 lines per 200 inputs, over the shipped pack and the German one.
        for (folder, share) in [("Content", 200), ("Examples/Marktplatz", 1_000)] {
            let url = BenchContent.packageRoot.appendingPathComponent(folder)
            let pack = try ContentPack.load(from: url, displayPath: folder).get()
            let lines = EvalCorpus.load(from: url, displayPath: folder, world: pack.world).cases.map(\.say)
            let restored = try await RestoreDifferential.run(
                pack: pack, lines: lines, conversations: max(1, iterations / share), turns: 60, seed: seed,
                contextSizes: [1_400, 1_800, 2_600, 32_768]
            ) { npc, world, contextSize in ScriptedModel(npc: npc, world: world, seed: seed, contextSize: contextSize) }
            summaries.append(restored.summary)
            report("- " + restored.description)
        }
        let total = summaries.reduce(0) { $0 + $1.iterations }
        let findings = summaries.reduce(0) { $0 + $1.findingCount }
        report("")
        report(
            "\(total) inputs, 0 crashes (the process is still running), \(findings) finding\(findings == 1 ? "" : "s")."
        )
        report("")
        return findings == 0
    }

    /// Runs only the HTTP API fuzzer: `requests` requests from four clients at once.
    static func runHTTP(requests: Int, seed: UInt64) async throws -> Bool {
        report("## Fuzzing the HTTP API (seed \(seed))")
        report("")
        let summary = try await HTTPAPIFuzzer.run(requests: requests, clients: 4, seed: seed)
        report("- " + summary.description)
        report("")
        return summary.passed
    }
}
