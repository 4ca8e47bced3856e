/// A named option a command accepts: a flag (`--json`) or an option with a value (`--seed 42`, `--seed=42`).
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
    public var defaultValue: String?

    /// Whether this is a flag, which takes no value.
    public var isFlag: Bool { valueName == nil }

    /// Declares a flag such as `--json`.
    ///
    /// - Parameters:
    ///   - name: The long name without dashes.
    ///   - shortName: A one-letter short name, if any.
    ///   - help: One line of help.
    /// - Returns: The option.
    public static func flag(_ name: String, shortName: Character? = nil, help: String) -> Option {
        Option(name: name, shortName: shortName, help: help, valueName: nil, defaultValue: nil)
    }

    /// Declares an option that takes a value, such as `--seed N`.
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

    /// `--json` or `--seed N`.
    var usage: String { "--\(name)" + (valueName.map { " \($0)" } ?? "") }

    /// `-s, --seed N` or `--json`.
    var helpLabel: String { (shortName.map { "-\($0), " } ?? "") + usage }
}
