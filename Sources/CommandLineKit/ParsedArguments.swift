/// The values a command line gave a command: its positional arguments, options and flags.
///
/// Defaults declared on untyped arguments and options are filled in, so `value(_:)` returns the default when the
/// user gave none. An option declared with a type is read with `value(of:environment:)` (or
/// `CommandContext.value(of:)`), which applies its environment variable and its typed default; an argument
/// declared with a type with `value(of:)`, and a flag with `isSet(_:)`. Reading through the declaration is what
/// commands should do: the string-keyed `value(_:)`, `values(_:)`, `integer(_:)` and `flag(_:)` read `nil` or
/// `false` for a misspelt name.
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

    /// Whether a flag was given.
    ///
    /// ```swift
    /// static let json = Option.flag("json", help: "Print JSON.")
    /// let printsJSON = arguments.isSet(json)
    /// ```
    ///
    /// - Parameter flag: The flag, as declared with `Option.flag(_:shortName:help:)`.
    /// - Returns: `true` when it was on the command line; always `false` for an option that takes a value (read
    ///   that one with `value(of:environment:)`).
    public func isSet(_ flag: Option) -> Bool { flag.isFlag && flags.contains(flag.name) }

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

    /// The typed value of an option: from the command line, else from its environment variable, else its default.
    ///
    /// ```swift
    /// let seed = try arguments.value(of: seedOption, environment: ProcessInfo.processInfo.environment)
    /// ```
    ///
    /// A handler has `CommandContext.value(of:)`, which passes the process's environment.
    ///
    /// - Parameters:
    ///   - option: The option, as declared with its type.
    ///   - environment: The environment variables, where the option's variable is looked up.
    /// - Returns: The value.
    /// - Throws: `UsageError` naming the option, or the environment variable, when the value is not one of the
    ///   option's type (the command line's is checked while parsing; this catches the environment's).
    public func value<Value>(
        of option: TypedOption<Value>, environment: [String: String]
    ) throws(UsageError) -> Value {
        if let text = value(option.name) {
            guard let value = option.read(text) else {
                throw option.check.error(option: "--\(option.name)", text: text)
            }
            return value
        }
        if let variable = option.option.environment, let text = environment[variable] {
            guard let value = option.read(text) else { throw option.check.error(environment: variable, text: text) }
            return value
        }
        return option.defaultValue
    }

    /// The typed value of a positional argument: from the command line, else the default it was declared with.
    ///
    /// ```swift
    /// let slot = try arguments.value(of: slotArgument)
    /// ```
    ///
    /// - Parameter argument: The argument, as declared with its type.
    /// - Returns: The value; `nil` for an argument declared with `Argument.optionalValue(_:type:help:)` and left out.
    /// - Throws: `UsageError` naming the argument when it is required and was not given, or when its value is not
    ///   one of its type (both are refused while parsing a command that lists the argument; this catches arguments
    ///   made by hand).
    public func value<Value>(of argument: TypedArgument<Value>) throws(UsageError) -> Value {
        if let text = value(argument.name) {
            guard let value = argument.read(text) else {
                throw argument.check.error(argument: argument.name, text: text)
            }
            return value
        }
        switch argument.whenLeftOut {
        case .value(let value): return value
        case .required: throw UsageError("missing argument \(argument.name)")
        }
    }

    mutating func append(_ value: String, for name: String) { values[name, default: []].append(value) }
    mutating func setFlag(_ name: String) { flags.insert(name) }
    mutating func setDefault(_ value: String, for name: String) {
        if values[name] == nil { values[name] = [value] }
    }
}
