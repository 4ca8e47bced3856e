/// What a command's handler gets: its parsed arguments, where it was called from, and its outputs.
public struct CommandContext: Sendable {
    /// The parsed arguments, with defaults filled in.
    public let arguments: ParsedArguments
    /// The command's full name, for example `["parley", "content", "check"]`.
    public let commandPath: [String]
    /// The process's environment variables.
    public let environment: [String: String]
    private let standardOutput: @Sendable (String) -> Void
    private let standardError: @Sendable (String) -> Void

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - arguments: The parsed arguments.
    ///   - commandPath: The command's full name.
    ///   - environment: The environment variables.
    ///   - standardOutput: Writes text to standard output, as it is.
    ///   - standardError: Writes text to standard error, as it is.
    public init(
        arguments: ParsedArguments, commandPath: [String], environment: [String: String],
        standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void
    ) {
        self.arguments = arguments
        self.commandPath = commandPath
        self.environment = environment
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Writes text to standard output.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - terminator: Written after it, a newline by default.
    public func print(_ text: String, terminator: String = "\n") { standardOutput(text + terminator) }

    /// Writes text to standard error.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - terminator: Written after it, a newline by default.
    public func printError(_ text: String, terminator: String = "\n") { standardError(text + terminator) }
}
