import CommandLineKit
import Foundation
import LLMTestSupport

/// The `parley-bench` command: every scenario, one scenario, the long fuzzing run, or the kill test at scale.
enum BenchCommand {
    /// `--quick`: smaller sizes and fewer repetitions.
    static let quick = Option.flag("quick", help: "Smaller sizes and fewer repetitions, for a fast look.")

    /// `turn --sizes N,N,...`: the transcript lengths.
    static let turnSizesOption = Option.value(
        "sizes", valueName: "N,N,...", type: .list(of: .integer(in: 1...Int.max, example: 100)),
        defaultValue: TurnOverhead.defaultSizes, help: "Transcript lengths.")

    /// `turn --samples N`: turns timed per length; `nil` leaves it to the scenario.
    static let samplesOption = Option.value(
        "samples", valueName: "N", type: .integer(in: 1...Int.max, example: 20),
        help: "Turns timed per length (default: 60, 20 with --quick).")

    /// `catalog --sizes N,N,...`: the catalogue sizes.
    static let catalogSizesOption = Option.value(
        "sizes", valueName: "N,N,...", type: .list(of: .integer(in: 1...Int.max, example: 1000)),
        defaultValue: CatalogScaling.defaultSizes, help: "Catalogue sizes.")

    /// `serve --games N`: the games played at once; `nil` leaves it to the scenario.
    static let serveGamesOption = Option.value(
        "games", valueName: "N", type: .integer(in: 1...100_000, example: 1000),
        help: "Games played at once (default: 1000, 20 with --quick).")

    /// `load --npcs N,N,...`: the NPC counts; `nil` leaves them to the scenario.
    static let loadSizesOption = Option.value(
        "npcs", valueName: "N,N,...", type: .list(of: .integer(in: 1...Int.max, example: 1000)),
        help: "NPC counts, the first the size of the target (default: 1000,10000; 100,1000 with --quick).")

    /// `load --turns N,N,...`: the turns of each NPC's conversation.
    static let loadTurnsOption = Option.value(
        "turns", valueName: "N,N,...", type: .list(of: .integer(in: 1...Int.max, example: 100)),
        defaultValue: [LoadToInput.defaultTurns],
        help: "Turns of each NPC's conversation; each NPC count is measured with each (default: 100).")

    /// `load --keep DIR`: keep the generated content and saves, and reuse them.
    static let loadKeepOption = Option.value(
        "keep", valueName: "DIR", type: .nonEmptyString(example: "bench-saves"),
        help: "Keep the generated content and saves in DIR and reuse them on later runs (written when missing).")

    /// `fuzz --iterations N`.
    static let iterationsOption = Option.value(
        "iterations", valueName: "N", type: .integer(in: 1...Int.max, example: 1000), defaultValue: 20_000,
        help: "Inputs for the fast fuzzers (others get a share).")

    /// `fuzz --seed S`.
    static let fuzzSeedOption = Option.value(
        "seed", valueName: "S", type: .unsignedInteger, defaultValue: 1,
        help: "The seed; the same seed gives the same inputs.")

    /// `fuzz --http-only`.
    static let httpOnlyFlag = Option.flag(
        "http-only", help: "Run only the HTTP API fuzzer, with --iterations requests.")

    /// `kill --rounds N`.
    static let roundsOption = Option.value(
        "rounds", valueName: "N", type: .integer(in: 1...Int.max, example: 50), defaultValue: 300,
        help: "How many kills.")

    /// `kill --seed S`.
    static let killSeedOption = Option.value(
        "seed", valueName: "S", type: .unsignedInteger, defaultValue: 24069, help: "The seed of the kill moments.")

    static let root = Command(
        "parley-bench",
        abstract: "Measure Parley against its performance targets, and run the reliability suites long.",
        discussion: """
            With no subcommand, runs scenarios 1 to 8 (5 and 6 need llama-server: scripts/llm-server install) and
            prints a Markdown report. Build with -c release for meaningful figures:
              swift build -c release --product parley-bench && .build/release/parley-bench
            """,
        options: [quick],
        subcommands: [
            Command(
                "turn", abstract: "1. Engine overhead per turn against transcript length.",
                options: [
                    quick, turnSizesOption.option, samplesOption.option,
                ],
                handler: turn),
            scenario("autosave", "2. Autosave after one turn against world size, beside a naive save.") {
                try AutosaveScaling.run(quick: $0)
            },
            Command(
                "load", abstract: "3. Loading 1,000- and 10,000-NPC × 100-turn saves until the game accepts input.",
                options: [quick, loadSizesOption.option, loadTurnsOption.option, loadKeepOption.option],
                handler: load),
            scenario("json", "4. Transcript JSON encode and decode throughput.") { try JSONThroughput.run(quick: $0) },
            scenario("llm-cache", "5. A 40-turn conversation with llama-server: time to first token, prompt cache.") {
                try await requireServer()
                try await LLMCache.run(quick: $0)
            },
            scenario("llm-parallel", "6. Eight NPCs at once through llama-server --parallel 4, against one by one.") {
                try await requireServer()
                try await LLMParallel.run(quick: $0)
            },
            Command(
                "catalog", abstract: "7. Talking to an NPC against the size of the item catalogue.",
                options: [quick, catalogSizesOption.option],
                handler: catalog),
            scenario("save-growth", "8. Save growth per turn over 1,000 turns of one conversation, with trims.") {
                try await SaveGrowth.run(quick: $0)
            },
            Command(
                "serve",
                abstract: "11. parley serve: 1,000 games at once x 20 turns over HTTP, against the same in process.",
                options: [quick, serveGamesOption.option],
                handler: serve),
            scenario("listing", "Listing a save folder (saves, a new game's slot) against its number of slots.") {
                try SlotListing.run(quick: $0)
            },
            scenario("speech", "Speech sentence by sentence: time to the first sentence against the whole line.") {
                try await SpeechLatency.run(quick: $0)
            },
            scenario(
                "voice", "NPC voices: time to the first audio (espeak-ng) against the first text; real-time factor."
            ) {
                try await VoiceLatency.run(quick: $0)
            },
            scenario("claims", "The claim check: building a checker, then checking one NPC line, per world size.") {
                try ClaimCost.run(quick: $0)
            },
            scenario("listen", "Speech in: the eval corpus spoken by espeak-ng, recognised by pocketsphinx, answered.") {
                try await ListenRoundTrip.run(quick: $0)
            },
            Command(
                "fuzz",
                abstract:
                    "Run the seeded fuzzers long: transcript decoder, content loader, save loader, SSE, the restore "
                    + "differential, the HTTP API.",
                options: [iterationsOption.option, fuzzSeedOption.option, httpOnlyFlag],
                handler: fuzz),
            Command(
                "kill", abstract: "Kill save-stress with SIGKILL during autosaves, many times, and check every save.",
                options: [roundsOption.option, killSeedOption.option],
                handler: killLoop),
        ],
        handler: all)

    /// A scenario subcommand with `--quick`.
    static func scenario(
        _ name: String, _ abstract: String, _ body: @escaping @Sendable (Bool) async throws -> Void
    ) -> Command {
        Command(name, abstract: abstract, options: [quick]) { context in
            printHeader()
            try await body(context.isSet(quick))
            return .success
        }
    }

    @Sendable static func all(_ context: CommandContext) async throws -> ExitCode {
        let quick = context.isSet(Self.quick)
        printHeader()
        try await TurnOverhead.run(quick: quick)
        try AutosaveScaling.run(quick: quick)
        try await LoadToInput.run(quick: quick)
        try JSONThroughput.run(quick: quick)
        try await CatalogScaling.run(quick: quick)
        try await SaveGrowth.run(quick: quick)
        try await ServeLoad.run(quick: quick, games: nil)
        if LlamaServerProcess.installation != nil {
            try await LLMCache.run(quick: quick)
            try await LLMParallel.run(quick: quick)
        } else {
            report("## 5 and 6. Skipped: llama-server is not installed")
            report("")
            report("Scenarios 5 and 6 need the local LLM server: run `scripts/llm-server install`, then this again.")
            report("")
        }
        report("Peak memory: \(format(Measure.peakMemoryMiB ?? .nan, digits: 0)) MiB.")
        return .success
    }

    @Sendable static func turn(_ context: CommandContext) async throws -> ExitCode {
        let sizes = try context.value(of: turnSizesOption)
        let samples = try context.value(of: samplesOption)
        printHeader()
        try await TurnOverhead.run(quick: context.isSet(quick), sizes: sizes, samples: samples)
        return .success
    }

    @Sendable static func load(_ context: CommandContext) async throws -> ExitCode {
        let sizes = try context.value(of: loadSizesOption)
        let turns = try context.value(of: loadTurnsOption)
        let keep = try context.value(of: loadKeepOption).map { URL(fileURLWithPath: $0) }
        printHeader()
        try await LoadToInput.run(quick: context.isSet(quick), sizes: sizes, turns: turns, keep: keep)
        return .success
    }

    @Sendable static func serve(_ context: CommandContext) async throws -> ExitCode {
        let games = try context.value(of: serveGamesOption)
        printHeader()
        try await ServeLoad.run(quick: context.isSet(quick), games: games)
        return .success
    }

    @Sendable static func catalog(_ context: CommandContext) async throws -> ExitCode {
        let sizes = try context.value(of: catalogSizesOption)
        printHeader()
        try await CatalogScaling.run(quick: context.isSet(quick), sizes: sizes)
        return .success
    }

    @Sendable static func fuzz(_ context: CommandContext) async throws -> ExitCode {
        let iterations = try context.value(of: iterationsOption)
        let seed = try context.value(of: fuzzSeedOption)
        printHeader()
        if context.isSet(httpOnlyFlag) {
            return try await FuzzRun.runHTTP(requests: iterations, seed: seed) ? .success : .failure
        }
        return try await FuzzRun.run(iterations: iterations, seed: seed) ? .success : .failure
    }

    @Sendable static func killLoop(_ context: CommandContext) async throws -> ExitCode {
        let rounds = try context.value(of: roundsOption)
        let seed = try context.value(of: killSeedOption)
        printHeader()
        return try KillLoop.run(rounds: rounds, seed: seed) == 0 ? .success : .failure
    }

    /// Fails with how to install the server when it is missing.
    static func requireServer() async throws {
        guard LlamaServerProcess.installation != nil else {
            throw BenchError("llama-server is not installed: run scripts/llm-server install, then this again")
        }
    }

    static func printHeader() {
        report("# parley-bench: \(CommandLine.arguments.dropFirst().joined(separator: " "))")
        report("")
        for line in MachineInfo.lines { report(line) }
        report("")
    }
}
