/// A mistake in the command line: an unknown option, a missing argument, a bad value.
///
/// The tool prints it with the command's usage line and exits with `ExitCode.usage` (64). Handlers may throw
/// it too, for example when an option's value cannot be parsed.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, for example `unknown option '--jsn'`.
    public var message: String
    /// How to fix it, for example `did you mean '--json'?`, or `nil`.
    public var hint: String?

    /// Creates a usage error.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - hint: How to fix it.
    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// `unknown option '--jsn' (did you mean '--json'?)`.
    public var description: String { message + (hint.map { " (\($0))" } ?? "") }
}
