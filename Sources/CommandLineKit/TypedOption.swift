/// An option with a typed value: its declaration, its default, and how its text is read.
///
/// Made by `Option.value(_:shortName:aliases:valueName:type:defaultValue:environment:help:)` (or the same without
/// `defaultValue`, which gives a `TypedOption<Value?>` that is `nil` when not given). List `option` in a command's
/// options, and read the value with `CommandContext.value(of:)`:
///
/// ```swift
/// static let maxTokens = Option.value(
///     "max-tokens", valueName: "N", type: .integer(in: 1...1_000_000, example: 200), help: "The longest reply.")
/// // in the handler:
/// let limit: Int? = try context.value(of: maxTokens)
/// ```
public struct TypedOption<Value: Sendable>: Sendable {
    /// The declaration, to list in a command's `options`.
    public let option: Option
    /// The value when neither the command line nor the environment gives one.
    public let defaultValue: Value
    /// The value a text stands for, or `nil` when it is not a good value.
    let read: @Sendable (String) -> Value?
    /// The check parsing makes, and the errors it gives.
    let check: ValueCheck

    /// The long name without dashes: `seed` for `--seed`.
    public var name: String { option.name }
}
