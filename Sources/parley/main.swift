import CommandLineKit

// The `parley` command: one file per subcommand; `ParleyCommand.swift` lists them.
await CommandLineTool(root: ParleyCommand.root).main()
