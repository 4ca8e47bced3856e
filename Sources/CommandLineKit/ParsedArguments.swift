/// The values a command line gave a command: its positional arguments, options and flags.
///
/// Defaults declared on arguments and options are filled in, so `value(_:)` returns the default when the user
/// gave none.
public struct ParsedArguments: Hashable, Sendable {
    /// The values of each positional argument and option by name (an option given twice has two values).
    public private(set) var values: [String: [String]] = [:]
    /// The flags that were given, by name.
    public private(set) var flags: Set<String> = []

    /// Empty arguments.
    public init() {}

    /// Whether the flag `name` was given.
    ///
    /// - Parameter name: The flag's long name, like `json`.
    /// - Returns: `true` when it was on the command line.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value of the argument or option `name`, or its default, or `nil`.
    ///
    /// - Parameter name: An argument's name (`DIR`) or an option's long name (`seed`).
    /// - Returns: The value.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of the argument or option `name`, in command-line order.
    ///
    /// - Parameter name: An argument's or option's name.
    /// - Returns: The values; empty when none was given and there is no default.
    public func values(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of `name` as an integer.
    ///
    /// - Parameter name: An argument's or option's name.
    /// - Returns: The number, or `nil` when there is no value.
    /// - Throws: `UsageError` when the value is not an integer.
    public func integer(_ name: String) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else {
            throw UsageError("the value of \(name) must be a whole number, not '\(text)'")
        }
        return number
    }

    mutating func append(_ value: String, for name: String) { values[name, default: []].append(value) }
    mutating func setFlag(_ name: String) { flags.insert(name) }
    mutating func setDefault(_ value: String, for name: String) {
        if values[name] == nil { values[name] = [value] }
    }
}
