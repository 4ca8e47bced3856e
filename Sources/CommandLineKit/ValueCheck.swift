/// What parsing needs of an option's or an argument's `ValueType`, without its type: whether a text is a good value, and the
/// usage error when it is not.
struct ValueCheck: Hashable, Sendable {
    /// What a good value is: `a whole number from 1 to 1000000`.
    let requirement: String
    /// A good value, for the hint.
    let example: String
    /// Whether a text is a good value.
    let accepts: @Sendable (String) -> Bool

    init<Value>(_ type: ValueType<Value>) {
        requirement = type.requirement
        example = type.example
        let read = type.read
        accepts = { read($0) != nil }
    }

    /// `--seed must be a whole number from 0 to …, not 'abc' (for example --seed 7)`.
    ///
    /// - Parameters:
    ///   - spelling: The option as it was typed: `--seed`, `-s` or an alias.
    ///   - text: The value given.
    func error(option spelling: String, text: String) -> UsageError {
        UsageError(
            "\(spelling) must be \(requirement), not \(Self.quoted(text))", hint: "for example \(spelling) \(example)")
    }

    /// `SLOT must be a slot name with a letter or digit, not '' (for example autosave)`.
    ///
    /// - Parameters:
    ///   - name: The positional argument's name, like `SLOT`.
    ///   - text: The value given.
    func error(argument name: String, text: String) -> UsageError {
        UsageError("\(name) must be \(requirement), not \(Self.quoted(text))", hint: "for example \(example)")
    }

    /// `the environment variable PARLEY_SEED must be a whole number from 0 to …, not 'abc' (for example
    /// PARLEY_SEED=7, or unset it)`.
    ///
    /// - Parameters:
    ///   - variable: The environment variable.
    ///   - text: Its value.
    func error(environment variable: String, text: String) -> UsageError {
        UsageError(
            "the environment variable \(variable) must be \(requirement), not \(Self.quoted(text))",
            hint: "for example \(variable)=\(example), or unset it")
    }

    /// A value as an error quotes it: `'abc'`, or its start and its length when it is long (a 100,000-character
    /// value is not printed back whole).
    static func quoted(_ text: String) -> String {
        guard text.count > 64 else { return "'\(text)'" }
        return "'\(text.prefix(32))…' (\(text.count) characters)"
    }

    // Two checks are the same when they describe the same values (closures cannot be compared).
    static func == (a: ValueCheck, b: ValueCheck) -> Bool {
        a.requirement == b.requirement && a.example == b.example
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(requirement)
        hasher.combine(example)
    }
}
