/// A command or subcommand: its name, help, arguments, options, subcommands and what it does.
///
/// Commands are declared as values and nest:
///
/// ```swift
/// let directory = Argument.value("DIR", type: .string, defaultValue: "Content", help: "The pack's directory.")
/// let json = Option.flag("json", help: "Print JSON.")
/// let check = Command(
///     "check", abstract: "Check a content pack.", arguments: [directory.argument], options: [json]
/// ) { context in
///     context.print("checking \(try context.value(of: directory))" + (context.isSet(json) ? " as JSON" : ""))
///     return .success
/// }
/// let root = Command("parley", abstract: "A text adventure.", subcommands: [
///     Command("content", abstract: "Work with content packs.", subcommands: [check]),
/// ])
/// ```
///
/// Every command accepts `--help` and `-h`; the help is generated from the declaration.
public struct Command: Sendable {
    /// What a command does when it runs; it returns the exit code, or throws (a `UsageError` exits with 64,
    /// anything else is printed as `error: ...` and exits with 1).
    public typealias Handler = @Sendable (CommandContext) async throws -> ExitCode

    /// The name typed on the command line: `check`.
    public var name: String
    /// One sentence saying what the command does.
    public var abstract: String
    /// More help, shown after the overview; may span lines.
    public var discussion: String?
    /// Positional arguments, in order.
    public var arguments: [Argument]
    /// Options and flags.
    public var options: [Option]
    /// Subcommands, selected by the first positional value.
    public var subcommands: [Command]
    /// What the command does; `nil` for a group that only holds subcommands.
    public var handler: Handler?

    /// Declares a command.
    ///
    /// - Parameters:
    ///   - name: The name typed on the command line.
    ///   - abstract: One sentence saying what it does.
    ///   - discussion: More help.
    ///   - arguments: Positional arguments, in order.
    ///   - options: Options and flags.
    ///   - subcommands: Subcommands.
    ///   - handler: What the command does; `nil` for a group of subcommands.
    public init(
        _ name: String, abstract: String, discussion: String? = nil, arguments: [Argument] = [],
        options: [Option] = [], subcommands: [Command] = [], handler: Handler? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.handler = handler
    }

    /// The subcommand called `name`, or `nil`.
    ///
    /// - Parameter name: A subcommand's name.
    /// - Returns: The subcommand.
    public func subcommand(named name: String) -> Command? { subcommands.first { $0.name == name } }

    /// The option whose long name, or one of whose aliases, is `name`, or `nil`.
    func option(named name: String) -> Option? { options.first { $0.isNamed(name) } }

    /// The option whose short name is `letter`, or `nil`.
    func option(short letter: Character) -> Option? { options.first { $0.shortName == letter } }
}
