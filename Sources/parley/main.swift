// The `parley` command: one file per subcommand; `ParleyCommand.swift` lists them. `ParleyCommand.main()` runs
// it with every printed text made safe for the terminal (`TerminalText`).
await ParleyCommand.main()
