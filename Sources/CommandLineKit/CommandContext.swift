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

    /// The typed value of an option: from the command line, else from its environment variable in `environment`,
    /// else its default.
    ///
    /// ```swift
    /// let seed = try context.value(of: seedOption)   // UInt64
    /// ```
    ///
    /// - Parameter option: The option, as declared with its type.
    /// - Returns: The value.
    /// - Throws: `UsageError` (exit 64) naming the environment variable when its value is not one of the option's
    ///   type; a bad value on the command line was refused while parsing.
    public func value<Value>(of option: TypedOption<Value>) throws(UsageError) -> Value {
        try arguments.value(of: option, environment: environment)
    }

    /// The typed value of a positional argument: from the command line, else the default it was declared with.
    ///
    /// ```swift
    /// let slot = try context.value(of: slotArgument)   // String
    /// ```
    ///
    /// - Parameter argument: The argument, as declared with its type and listed in the command's arguments.
    /// - Returns: The value; `nil` for an argument declared with `Argument.optionalValue(_:type:help:)` and left out.
    /// - Throws: `UsageError` naming the argument when it is required and missing; a bad value on the command line
    ///   was refused while parsing.
    public func value<Value>(of argument: TypedArgument<Value>) throws(UsageError) -> Value {
        try arguments.value(of: argument)
    }

    /// Whether a flag was given on the command line.
    ///
    /// ```swift
    /// if context.isSet(jsonFlag) { ... }
    /// ```
    ///
    /// - Parameter flag: The flag, as declared with `Option.flag(_:shortName:help:)` and listed in the command's
    ///   options.
    /// - Returns: `true` when it was given; always `false` for an option that takes a value.
    public func isSet(_ flag: Option) -> Bool { arguments.isSet(flag) }

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
