import CommandLineKit
import Foundation
import LLMTestSupport

/// The `parley-bench` command: every scenario, one scenario, the long fuzzing run, or the kill test at scale.
enum BenchCommand {
    static let quick = Option.flag("quick", help: "Smaller sizes and fewer repetitions, for a fast look.")

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
                    quick,
                    .value("sizes", valueName: "N,N,...", help: "Transcript lengths (default: 10,100,1000,5000)."),
                    .value("samples", valueName: "N", help: "Turns timed per length (default: 60, 20 with --quick)."),
                    .flag("simulate-fix", help: "Count tokens incrementally, as the proposed pre-check fix would."),
                ],
                handler: turn),
            scenario("autosave", "2. Autosave after one turn against world size, beside a naive save.") {
                try AutosaveScaling.run(quick: $0)
            },
            scenario("load", "3. Loading a 1,000-NPC × 100-turn save until the game accepts input.") {
                try await LoadToInput.run(quick: $0)
            },
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
                options: [
                    quick,
                    .value("sizes", valueName: "N,N,...", help: "Catalogue sizes (default: 1000,10000,100000)."),
                ],
                handler: catalog),
            scenario("save-growth", "8. Save growth per turn over 1,000 turns of one conversation, with trims.") {
                try await SaveGrowth.run(quick: $0)
            },
            Command(
                "fuzz", abstract: "Run the seeded fuzzers long: transcript decoder, content loader, save loader, SSE.",
                options: [
                    .value(
                        "iterations", valueName: "N", defaultValue: "20000",
                        help: "Inputs for the fast fuzzers (others get a share)."),
                    .value(
                        "seed", valueName: "S", defaultValue: "1",
                        help: "The seed; the same seed gives the same inputs."),
                ],
                handler: fuzz),
            Command(
                "kill", abstract: "Kill save-stress with SIGKILL during autosaves, many times, and check every save.",
                options: [
                    .value("rounds", valueName: "N", defaultValue: "300", help: "How many kills."),
                    .value("seed", valueName: "S", defaultValue: "24069", help: "The seed of the kill moments."),
                ],
                handler: killLoop),
        ],
        handler: all)

    /// A scenario subcommand with `--quick`.
    static func scenario(
        _ name: String, _ abstract: String, _ body: @escaping @Sendable (Bool) async throws -> Void
    ) -> Command {
        Command(name, abstract: abstract, options: [quick]) { context in
            printHeader()
            try await body(context.arguments.flag("quick"))
            return .success
        }
    }

    @Sendable static func all(_ context: CommandContext) async throws -> ExitCode {
        let quick = context.arguments.flag("quick")
        printHeader()
        try await TurnOverhead.run(quick: quick)
        try await TurnOverhead.run(quick: quick, simulatingFix: true)
        try AutosaveScaling.run(quick: quick)
        try await LoadToInput.run(quick: quick)
        try JSONThroughput.run(quick: quick)
        try await CatalogScaling.run(quick: quick)
        try await SaveGrowth.run(quick: quick)
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
        let sizes = try self.sizes(context) ?? TurnOverhead.defaultSizes
        let samples = try context.arguments.integer("samples")
        printHeader()
        try await TurnOverhead.run(
            quick: context.arguments.flag("quick"), sizes: sizes, samples: samples,
            simulatingFix: context.arguments.flag("simulate-fix"))
        return .success
    }

    @Sendable static func catalog(_ context: CommandContext) async throws -> ExitCode {
        let sizes = try self.sizes(context) ?? CatalogScaling.defaultSizes
        printHeader()
        try await CatalogScaling.run(quick: context.arguments.flag("quick"), sizes: sizes)
        return .success
    }

    /// The `--sizes` option's list, or `nil` when it is not given.
    static func sizes(_ context: CommandContext) throws -> [Int]? {
        guard let text = context.arguments.value("sizes") else { return nil }
        return try text.split(separator: ",").map { part in
            guard let size = Int(part.trimmingCharacters(in: .whitespaces)), size > 0 else {
                throw UsageError("--sizes takes positive whole numbers separated by commas, not '\(text)'")
            }
            return size
        }
    }

    @Sendable static func fuzz(_ context: CommandContext) async throws -> ExitCode {
        let iterations = try context.arguments.integer("iterations") ?? 20_000
        guard let seed = UInt64(context.arguments.value("seed") ?? "1") else {
            throw UsageError("--seed must be a whole number, not '\(context.arguments.value("seed") ?? "")'")
        }
        guard iterations > 0 else { throw UsageError("--iterations must be at least 1") }
        printHeader()
        return try await FuzzRun.run(iterations: iterations, seed: seed) ? .success : .failure
    }

    @Sendable static func killLoop(_ context: CommandContext) async throws -> ExitCode {
        let rounds = try context.arguments.integer("rounds") ?? 300
        guard let seed = UInt64(context.arguments.value("seed") ?? "24069") else {
            throw UsageError("--seed must be a whole number, not '\(context.arguments.value("seed") ?? "")'")
        }
        guard rounds > 0 else { throw UsageError("--rounds must be at least 1") }
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
