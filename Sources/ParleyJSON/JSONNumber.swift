/// A JSON number, kept as the exact text it was written with.
///
/// Keeping the text makes numbers lossless: a 64-bit seed such as `18446744073709551615`, which a `Double` would
/// round, is written back exactly as it was read. Two numbers are equal when their values are equal (`1`, `1.0`
/// and `1e0` are the same number); numbers too large for a `Double` compare by their text.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's JSON text, for example `42`, `-0.5` or `6.02e23`.
    public let text: String

    /// A number from its JSON text, or `nil` when the text is not a JSON number.
    ///
    /// - Parameter text: A JSON number such as `-12.5e3`. Leading zeros, `+`, `NaN` and `Infinity` are rejected.
    public init?(text: String) {
        guard JSONNumber.isValid(text.utf8) else { return nil }
        self.text = text
    }

    /// A number from an integer; its text is the integer's decimal form.
    public init(_ value: some BinaryInteger) {
        text = String(value)
    }

    /// A number from a double, or `nil` when the double is infinite or NaN.
    ///
    /// Whole numbers within ±2^53 are written without a fraction (`3.0` becomes `3`); others use the shortest
    /// text that reads back as the same double.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            text = String(Int64(value))
        } else {
            text = "\(value)"
        }
    }

    /// Creates a number from text the parser already checked.
    init(unchecked text: String) {
        self.text = text
    }

    /// The number's value as a `Double` (large values are rounded, as `Double` must).
    public var doubleValue: Double { Double(text) ?? .nan }

    /// The number as an `Int` when it is an exact integer that fits, otherwise `nil`.
    public var intValue: Int? {
        if let exact = Int(text) { return exact }
        let value = doubleValue
        guard value.isFinite, value == value.rounded(), abs(value) < 9_007_199_254_740_992 else { return nil }
        return Int(value)
    }

    /// The number as an `Int` that never fails for a number: its integer part where it fits, `Int.max` (`Int.min`)
    /// beyond, as for counts a server or a file reports, where `1e300` means "more than can be counted" and must
    /// neither trap nor be taken for no count at all.
    ///
    /// `12` and `12.9` give 12, `9223372036854775808` and `1e400` give `Int.max`, `-1e300` gives `Int.min`.
    public var saturatingIntValue: Int {
        if let exact = Int(text) { return exact }
        let value = doubleValue
        if value.isNaN { return 0 }
        // 2^63 is the first Double beyond Int.max; below it, every Double converts.
        if value >= 9_223_372_036_854_775_808.0 { return .max }
        if value < -9_223_372_036_854_775_808.0 { return .min }
        return Int(value.rounded(.towardZero))
    }

    /// The number as a `UInt64` when it is an exact non-negative integer that fits, otherwise `nil`.
    public var uint64Value: UInt64? {
        if let exact = UInt64(text) { return exact }
        guard let int = intValue, int >= 0 else { return nil }
        return UInt64(int)
    }

    /// The number's JSON text.
    public var description: String { text }

    /// Whether two numbers have the same value.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text == rhs.text { return true }
        let (a, b) = (lhs.doubleValue, rhs.doubleValue)
        guard a.isFinite, b.isFinite, abs(a) < 9_007_199_254_740_992 else { return false }
        return a == b
    }

    /// Hashes the number consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        let value = doubleValue
        if value.isFinite, abs(value) < 9_007_199_254_740_992 {
            hasher.combine(value)
        } else {
            hasher.combine(text)
        }
    }

    /// Checks JSON's number grammar: `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        var index = bytes.startIndex
        func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }
        func advance() { index = bytes.index(after: index) }
        func digits() -> Int {
            var count = 0
            while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                advance()
                count += 1
            }
            return count
        }
        if peek() == UInt8(ascii: "-") { advance() }
        if peek() == UInt8(ascii: "0") {
            advance()
        } else if digits() == 0 {
            return false
        }
        if peek() == UInt8(ascii: ".") {
            advance()
            if digits() == 0 { return false }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            advance()
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { advance() }
            if digits() == 0 { return false }
        }
        return index == bytes.endIndex
    }
}
