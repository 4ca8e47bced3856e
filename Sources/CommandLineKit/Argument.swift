/// A positional argument a command accepts, such as the `DIR` of `parley content check [DIR]`.
public struct Argument: Hashable, Sendable {
    /// The name shown in help and used to look the value up, by convention in capitals: `DIR`.
    public var name: String
    /// One line of help.
    public var help: String
    /// The value when the argument is left out; `nil` makes the argument required unless `isOptional`.
    public var defaultValue: String?
    /// Whether the argument may be left out without a default.
    public var isOptional: Bool
    /// Whether the argument takes every remaining positional value (it must be the last one).
    public var isRepeating: Bool

    /// Declares a positional argument.
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

    /// How the argument appears in a usage line: `DIR`, `[DIR]`, `FILE...`.
    var usage: String {
        let base = name + (isRepeating ? "..." : "")
        return isOptional ? "[\(base)]" : base
    }
}
