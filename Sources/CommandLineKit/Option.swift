/// A named option a command accepts: a flag (`--json`) or an option with a value (`--seed 42`, `--seed=42`).
///
/// An option with a value is best declared with its type, default and environment variable, in one place:
///
/// ```swift
/// static let seed = Option.value(
///     "seed", valueName: "N", type: .unsignedInteger, defaultValue: 1, help: "The scripted model's seed.")
/// static let saves = Option.value(
///     "saves", aliases: ["folder"], valueName: "DIR", type: .string, defaultValue: "SaveGames",
///     environment: "PARLEY_SAVES", help: "The saves folder.")
///
/// Command("play", abstract: "Play.", options: [seed.option, saves.option]) { context in
///     let seed = try context.value(of: seed)      // a UInt64; `--seed abc` never gets this far
///     let folder = try context.value(of: saves)   // --saves, else --folder, else $PARLEY_SAVES, else SaveGames
///     ...
/// }
/// ```
///
/// Such an option's value is checked while the command line is parsed, and its help shows the default and the
/// environment variable. A flag is read with `CommandContext.isSet(_:)`. The untyped
/// `value(_:shortName:valueName:defaultValue:help:)` remains for plain text read by name.
public struct Option: Hashable, Sendable {
    /// The long name without dashes: `json` for `--json`.
    public var name: String
    /// The one-letter short name without its dash (`s` for `-s`), or `nil`.
    public var shortName: Character?
    /// One line of help.
    public var help: String
    /// The value's name in help (`N` in `--seed N`); `nil` for a flag.
    public var valueName: String?
    /// The value when the option is not given, shown in help; `nil` for none.
    ///
    /// For an untyped option it is also the value `ParsedArguments.value(_:)` returns when the option is not given.
    /// For an option declared with a type it is only shown: the typed default is what `CommandContext.value(of:)`
    /// returns.
    public var defaultValue: String?
    /// Other long names that mean the same option, without dashes: `folder` for `--saves`. Help lists them.
    public internal(set) var aliases: [String] = []
    /// The environment variable that gives the value when the command line does not, such as `PARLEY_SAVES`, or
    /// `nil`. Read by `CommandContext.value(of:)`; shown in help.
    public internal(set) var environment: String?
    /// How a value is checked while parsing, for an option declared with a type; `nil` for an untyped one.
    var check: ValueCheck?

    /// Whether this is a flag, which takes no value.
    public var isFlag: Bool { valueName == nil }

    /// Declares a flag such as `--json`.
    ///
    /// Declare it once and read it through the declaration:
    ///
    /// ```swift
    /// static let json = Option.flag("json", help: "Print JSON.")
    /// // listed in a command's options as `json`; in the handler:
    /// if context.isSet(json) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The long name without dashes.
    ///   - shortName: A one-letter short name, if any.
    ///   - help: One line of help.
    /// - Returns: The option.
    public static func flag(_ name: String, shortName: Character? = nil, help: String) -> Option {
        Option(name: name, shortName: shortName, help: help, valueName: nil, defaultValue: nil)
    }

    /// Declares an option that takes a value as plain text, such as `--out FILE`.
    ///
    /// Prefer `value(_:shortName:aliases:valueName:type:defaultValue:environment:help:)` for a value that is not
    /// plain text or that has a default: it is checked while parsing and read typed.
    ///
    /// - Parameters:
    ///   - name: The long name without dashes.
    ///   - shortName: A one-letter short name, if any.
    ///   - valueName: The value's name in help, like `N` or `PATH`.
    ///   - defaultValue: The value when the option is not given.
    ///   - help: One line of help.
    /// - Returns: The option.
    public static func value(
        _ name: String, shortName: Character? = nil, valueName: String = "VALUE", defaultValue: String? = nil,
        help: String
    ) -> Option {
        Option(name: name, shortName: shortName, help: help, valueName: valueName, defaultValue: defaultValue)
    }

    /// Declares an option with a typed value and a default, such as `--seed N`.
    ///
    /// The value comes from the command line, else from the environment variable, else it is `defaultValue`. A
    /// value that `type` cannot read is a usage error naming the option (or the variable) and what it must be.
    ///
    /// - Parameters:
    ///   - name: The long name without dashes.
    ///   - shortName: A one-letter short name, if any.
    ///   - aliases: Other long names for the option, without dashes.
    ///   - valueName: The value's name in help, like `N` or `DIR`.
    ///   - type: How the value is read and checked: `.unsignedInteger`, `.integer(in:)`, `.string`, ….
    ///   - defaultValue: The value when neither the command line nor the environment gives one.
    ///   - environment: The environment variable that gives the value when the command line does not.
    ///   - help: One line of help; the aliases, default and environment variable are added to it.
    /// - Returns: The option, to list in a command's options as `.option` and to read with
    ///   `CommandContext.value(of:)`.
    public static func value<Value>(
        _ name: String, shortName: Character? = nil, aliases: [String] = [], valueName: String = "VALUE",
        type: ValueType<Value>, defaultValue: Value, environment: String? = nil, help: String
    ) -> TypedOption<Value> {
        var option = Option(
            name: name, shortName: shortName, help: help, valueName: valueName,
            defaultValue: type.format(defaultValue))
        option.aliases = aliases
        option.environment = environment
        option.check = ValueCheck(type)
        return TypedOption(option: option, defaultValue: defaultValue, read: type.read, check: ValueCheck(type))
    }

    /// Declares an option with a typed value and no default, such as `--max-tokens N`: its value is `nil` when
    /// neither the command line nor the environment gives one.
    ///
    /// - Parameters:
    ///   - name: The long name without dashes.
    ///   - shortName: A one-letter short name, if any.
    ///   - aliases: Other long names for the option, without dashes.
    ///   - valueName: The value's name in help, like `N` or `DIR`.
    ///   - type: How the value is read and checked.
    ///   - environment: The environment variable that gives the value when the command line does not.
    ///   - help: One line of help; the aliases and environment variable are added to it.
    /// - Returns: The option, to list in a command's options as `.option` and to read with
    ///   `CommandContext.value(of:)`.
    public static func value<Value>(
        _ name: String, shortName: Character? = nil, aliases: [String] = [], valueName: String = "VALUE",
        type: ValueType<Value>, environment: String? = nil, help: String
    ) -> TypedOption<Value?> {
        var option = Option(name: name, shortName: shortName, help: help, valueName: valueName, defaultValue: nil)
        option.aliases = aliases
        option.environment = environment
        option.check = ValueCheck(type)
        return TypedOption(
            option: option, defaultValue: nil, read: { text in type.read(text).map { .some($0) } },
            check: ValueCheck(type))
    }

    /// Whether `name` is this option's long name or one of its aliases.
    func isNamed(_ name: String) -> Bool { self.name == name || aliases.contains(name) }

    /// `--json` or `--seed N`.
    var usage: String { "--\(name)" + (valueName.map { " \($0)" } ?? "") }

    /// `-s, --seed N` or `--json`.
    var helpLabel: String { (shortName.map { "-\($0), " } ?? "") + usage }
}
