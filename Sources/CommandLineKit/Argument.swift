/// A positional argument a command accepts, such as the `DIR` of `parley content check [DIR]`.
///
/// An argument is best declared with its type, once, and read typed through that declaration:
///
/// ```swift
/// static let slot = Argument.value("SLOT", type: .nonEmptyString(example: "autosave"), help: "The slot.")
/// static let directory = Argument.value("DIR", type: .string, defaultValue: "Content", help: "The pack.")
///
/// Command("show", abstract: "Show a save.", arguments: [slot.argument]) { context in
///     let slot = try context.value(of: slot)   // a String; `show ""` never gets this far
///     ...
/// }
/// ```
///
/// Such an argument's value is checked while the command line is parsed, so a bad one is a usage error (exit 64)
/// naming the argument. The untyped `init(_:help:defaultValue:isOptional:isRepeating:)` remains for plain text,
/// read by name from `ParsedArguments`.
public struct Argument: Hashable, Sendable {
    /// The name shown in help and used to look the value up, by convention in capitals: `DIR`.
    public var name: String
    /// One line of help.
    public var help: String
    /// The value when the argument is left out, shown in help; `nil` makes the argument required unless
    /// `isOptional`.
    ///
    /// For an untyped argument it is also the value `ParsedArguments.value(_:)` returns when the argument is left
    /// out. For an argument declared with a type it is only shown: the typed default is what
    /// `CommandContext.value(of:)` returns.
    public var defaultValue: String?
    /// Whether the argument may be left out without a default.
    public var isOptional: Bool
    /// Whether the argument takes every remaining positional value (it must be the last one).
    public var isRepeating: Bool
    /// How a value is checked while parsing, for an argument declared with a type; `nil` for an untyped one.
    var check: ValueCheck?

    /// Declares a positional argument whose value is plain text, read by name from `ParsedArguments`.
    ///
    /// Prefer `value(_:type:help:)` and its variants: the value is checked while parsing and read typed through
    /// the declaration, so a misspelt name cannot silently read `nil`.
    ///
    /// - Parameters:
    ///   - name: The name shown in help, like `DIR`.
    ///   - help: One line of help.
    ///   - defaultValue: The value when it is left out; an argument with a default is optional.
    ///   - isOptional: Whether it may be left out without a default.
    ///   - isRepeating: Whether it takes every remaining positional value.
    public init(
        _ name: String, help: String, defaultValue: String? = nil, isOptional: Bool = false, isRepeating: Bool = false
    ) {
        self.name = name
        self.help = help
        self.defaultValue = defaultValue
        self.isOptional = isOptional || defaultValue != nil
        self.isRepeating = isRepeating
    }

    /// Declares a required positional argument with a typed value, such as `SLOT`.
    ///
    /// Leaving it out is a usage error (`missing argument SLOT`); a value that `type` cannot read is a usage error
    /// naming the argument and what it must be.
    ///
    /// - Parameters:
    ///   - name: The name shown in help, like `SLOT`.
    ///   - type: How the value is read and checked: `.string`, `.nonEmptyString(example:)`, `.integer(in:)`, ….
    ///   - help: One line of help.
    /// - Returns: The argument, to list in a command's arguments as `.argument` and to read with
    ///   `CommandContext.value(of:)`.
    public static func value<Value>(_ name: String, type: ValueType<Value>, help: String) -> TypedArgument<Value> {
        var argument = Argument(name, help: help)
        argument.check = ValueCheck(type)
        return TypedArgument(argument: argument, whenLeftOut: .required, read: type.read, check: ValueCheck(type))
    }

    /// Declares an optional positional argument with a typed value and a default, such as `[DIR]`.
    ///
    /// - Parameters:
    ///   - name: The name shown in help, like `DIR`.
    ///   - type: How the value is read and checked.
    ///   - defaultValue: The value when the argument is left out; help shows it.
    ///   - help: One line of help; the default is added to it.
    /// - Returns: The argument, to list in a command's arguments as `.argument` and to read with
    ///   `CommandContext.value(of:)`.
    public static func value<Value>(
        _ name: String, type: ValueType<Value>, defaultValue: Value, help: String
    ) -> TypedArgument<Value> {
        var argument = Argument(name, help: help, defaultValue: type.format(defaultValue))
        argument.check = ValueCheck(type)
        return TypedArgument(
            argument: argument, whenLeftOut: .value(defaultValue), read: type.read, check: ValueCheck(type))
    }

    /// Declares an optional positional argument with a typed value and no default, such as `[ID]`: its value is
    /// `nil` when it is left out.
    ///
    /// - Parameters:
    ///   - name: The name shown in help, like `ID`.
    ///   - type: How the value is read and checked.
    ///   - help: One line of help.
    /// - Returns: The argument, to list in a command's arguments as `.argument` and to read with
    ///   `CommandContext.value(of:)`.
    public static func optionalValue<Value>(
        _ name: String, type: ValueType<Value>, help: String
    ) -> TypedArgument<Value?> {
        var argument = Argument(name, help: help, isOptional: true)
        argument.check = ValueCheck(type)
        return TypedArgument(
            argument: argument, whenLeftOut: .value(nil), read: { text in type.read(text).map { .some($0) } },
            check: ValueCheck(type))
    }

    /// How the argument appears in a usage line: `DIR`, `[DIR]`, `FILE...`.
    var usage: String {
        let base = name + (isRepeating ? "..." : "")
        return isOptional ? "[\(base)]" : base
    }
}
