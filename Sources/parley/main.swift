import CommandLineKit

// The `parley` command: one file per subcommand; `ParleyCommand.swift` lists them.
CommandLineTool(root: ParleyCommand.root).main()
