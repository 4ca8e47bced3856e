/// What parsing a command line found: a command to run, a request for help, or a mistake.
public enum ParseOutcome: Sendable {
    /// Run `command` with `arguments`; `path` is its full name (`["parley", "content", "check"]`).
    case run(command: Command, path: [String], arguments: ParsedArguments)
    /// Show the help of the command at `path` (`--help` or `-h` was given).
    case help(command: Command, path: [String])
    /// The command line is wrong for the command at `path`.
    case usageError(UsageError, command: Command, path: [String])
}
