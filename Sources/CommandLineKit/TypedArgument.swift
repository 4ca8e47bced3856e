/// A positional argument with a typed value: its declaration, what it is when left out, and how its text is read.
///
/// Made by `Argument.value(_:type:help:)` (required), `Argument.value(_:type:defaultValue:help:)` (optional, with a
/// default) or `Argument.optionalValue(_:type:help:)` (a `TypedArgument<Value?>` that is `nil` when left out). List
/// `argument` in a command's arguments, and read the value with `CommandContext.value(of:)`:
///
/// ```swift
/// static let npc = Argument.value("NPC", type: .nonEmptyString(example: "mira"), help: "The NPC's id.")
/// // in the handler:
/// let npc: String = try context.value(of: npc)
/// ```
public struct TypedArgument<Value: Sendable>: Sendable {
    /// What the value is when the argument is left out.
    enum WhenLeftOut: Sendable {
        /// It may not be left out: parsing refuses the command line.
        case required
        /// This value.
        case value(Value)
    }

    /// The declaration, to list in a command's `arguments`.
    public let argument: Argument
    /// What the value is when the command line leaves the argument out.
    let whenLeftOut: WhenLeftOut
    /// The value a text stands for, or `nil` when it is not a good value.
    let read: @Sendable (String) -> Value?
    /// The check parsing makes, and the errors it gives.
    let check: ValueCheck

    /// The name shown in help and usage errors: `SLOT`.
    public var name: String { argument.name }
}
