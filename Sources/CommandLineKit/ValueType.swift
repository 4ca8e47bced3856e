import Foundation
import ParleyBasics

/// The type of an option's or a positional argument's value: how its text is read, what a good value looks like, and how a value is shown.
///
/// An option declared with a type (`Option.value(_:type:defaultValue:environment:help:)`) is checked while the
/// command line is parsed, so a bad value is a usage error (exit 64) in every command that has the option, before
/// its handler runs; the handler reads the typed value with `CommandContext.value(of:)`. So is an argument declared
/// with a type (`Argument.value(_:type:help:)`).
///
/// ```swift
/// ValueType<UInt64>.unsignedInteger.read("42")                    // 42
/// ValueType<Int>.integer(in: 1...10).read("11")                    // nil: "a whole number from 1 to 10"
/// ValueType<Duration>.seconds(atMost: 60, example: 5).read("1.5")  // 1.5 seconds
/// ValueType<[Int]>.list(of: .integer(in: 1...Int.max)).read("10, 100")  // [10, 100]
/// ```
public struct ValueType<Value: Sendable>: Sendable {
    /// What a good value is, completing "--seed must be …": `a whole number from 1 to 1000000`.
    public var requirement: String
    /// A good value, for the hint of an error: `7` in "for example --seed 7".
    public var example: String
    /// The value that text stands for, or `nil` when the text is not a good value.
    public var read: @Sendable (String) -> Value?
    /// A value as it is typed on the command line, to show a default in help: `60` for 60 seconds.
    public var format: @Sendable (Value) -> String

    /// A type of value.
    ///
    /// - Parameters:
    ///   - requirement: What a good value is, completing "--name must be …".
    ///   - example: A good value, as typed.
    ///   - read: The value that text stands for, or `nil` when it is not a good value.
    ///   - format: A value as it would be typed.
    public init(
        requirement: String, example: String, read: @escaping @Sendable (String) -> Value?,
        format: @escaping @Sendable (Value) -> String
    ) {
        self.requirement = requirement
        self.example = example
        self.read = read
        self.format = format
    }
}

// MARK: - Text

extension ValueType where Value == String {
    /// Any text, as it is: a path, a name, a model specification.
    public static var string: ValueType<String> {
        ValueType(requirement: "some text", example: "text", read: { $0 }, format: { $0 })
    }

    /// Any text but the empty one, as it is: a slot, a report's id, a file to write.
    ///
    /// ```swift
    /// ValueType<String>.nonEmptyString(example: "autosave").read("")   // nil: "non-empty text"
    /// ```
    ///
    /// - Parameter example: A good value for the hint of an error: `autosave` in "for example autosave".
    /// - Returns: The type.
    public static func nonEmptyString(example: String) -> ValueType<String> {
        ValueType(
            requirement: "non-empty text", example: example, read: { $0.isEmpty ? nil : $0 }, format: { $0 })
    }
}

// MARK: - Whole numbers

extension ValueType where Value == Int {
    /// Any whole number that fits in an `Int`, written in decimal with an optional sign: `42`, `-3`.
    public static var integer: ValueType<Int> { integer(in: .min ... .max) }

    /// A whole number in a range: `--max-tokens` is `.integer(in: 1...1_000_000, example: 200)`.
    ///
    /// - Parameters:
    ///   - range: The numbers allowed.
    ///   - example: A number for the hint of an error; the number in the range nearest to 1 when `nil`.
    /// - Returns: The type.
    public static func integer(in range: ClosedRange<Int>, example: Int? = nil) -> ValueType<Int> {
        let requirement =
            switch (range.lowerBound, range.upperBound) {
            case (.min, .max): "a whole number"
            case (let lower, .max): "a whole number of \(lower) or more"
            case (.min, let upper): "a whole number of \(upper) or less"
            case (let lower, let upper): "a whole number from \(lower) to \(upper)"
            }
        return ValueType(
            requirement: requirement, example: "\(example ?? range.clamped(1))",
            read: { text in Int(text).flatMap { range.contains($0) ? $0 : nil } }, format: { "\($0)" })
    }
}

extension ValueType where Value == UInt64 {
    /// A whole number from 0 to `UInt64.max`, such as a seed: `7`. A minus sign is refused.
    public static var unsignedInteger: ValueType<UInt64> {
        ValueType(
            requirement: "a whole number from 0 to \(UInt64.max)", example: "7", read: { UInt64($0) },
            format: { "\($0)" })
    }
}

// MARK: - Durations

extension ValueType where Value == Duration {
    /// A number of seconds above 0, fractions allowed (`1.5`), as a `Duration` in whole milliseconds (at least 1).
    ///
    /// - Parameters:
    ///   - maximum: The most seconds allowed.
    ///   - example: A number of seconds for the hint of an error.
    /// - Returns: The type.
    public static func seconds(atMost maximum: Double, example: Double) -> ValueType<Duration> {
        ValueType(
            requirement: "a number of seconds above 0 and at most \(Self.decimal(maximum))",
            example: Self.decimal(example),
            read: { text in
                guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= maximum else { return nil }
                return .milliseconds(max(1, Int64(seconds * 1000)))
            },
            format: { duration in
                let milliseconds = duration.milliseconds(rounded: .toNearestOrAwayFromZero)
                return milliseconds.isMultiple(of: 1000) ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
            })
    }

    /// `60` for 60.0, `0.5` for 0.5.
    private static func decimal(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? "\(Int64(number))" : "\(number)"
    }
}

// MARK: - Lists

extension ValueType {
    /// Values separated by commas, such as `10,100,1000`, or one value alone; spaces around each are ignored, and
    /// an empty one is refused.
    ///
    /// - Parameter element: The type of each value.
    /// - Returns: The type of the list.
    public static func list<Element>(of element: ValueType<Element>) -> ValueType<[Element]>
    where Value == [Element] {
        ValueType<[Element]>(
            requirement: "\(element.requirement), or several separated by commas",
            example: element.example,
            read: { text in
                var values: [Element] = []
                for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let value = element.read(part.trimmingCharacters(in: .whitespaces)) else { return nil }
                    values.append(value)
                }
                return values
            },
            format: { $0.map(element.format).joined(separator: ",") })
    }
}

extension ClosedRange<Int> {
    /// The number in the range nearest to `number`.
    fileprivate func clamped(_ number: Int) -> Int { Swift.min(Swift.max(number, lowerBound), upperBound) }
}
