import CommandLineKit

// parley-bench: Parley's benchmarks and the long runs of its reliability suites. `BenchCommand.swift` lists the
// subcommands; BENCHMARKS.md reports the figures.
await CommandLineTool(root: BenchCommand.root).main()
