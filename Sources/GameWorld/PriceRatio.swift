/// A price multiplier such as `1.25`, kept exactly in hundredths.
///
/// Content files write ratios as decimal numbers with at most two decimal places (`1.5`, `0.45`); the rules
/// compute prices with integers from `hundredths` so that `10 × 1.1` is exactly 11, never 11.000000000000002.
public struct PriceRatio: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The ratio times 100: `125` for 1.25.
    public let hundredths: Int

    /// A ratio from hundredths.
    ///
    /// - Parameter hundredths: The ratio times 100, for example `150` for 1.5.
    public init(hundredths: Int) {
        self.hundredths = hundredths
    }

    /// A ratio from a decimal number, or `nil` when it has more than two decimal places or is not finite.
    ///
    /// - Parameter value: The ratio, for example `1.25`.
    public init?(_ value: Double) {
        guard value.isFinite, abs(value) < 1e12 else { return nil }
        let scaled = (value * 100).rounded()
        guard abs(value * 100 - scaled) < 1e-6 else { return nil }
        hundredths = Int(scaled)
    }

    /// The ratio 1: prices equal values.
    public static let one = PriceRatio(hundredths: 100)

    /// The ratio as a `Double`, for display.
    public var doubleValue: Double { Double(hundredths) / 100 }

    /// `value × ratio`, rounded up to whole gold.
    ///
    /// - Parameter value: A value in gold, at least 0.
    /// - Returns: The smallest whole number of gold not below `value × ratio`; `Int.max` (or `Int.min`) when that
    ///   does not fit in an `Int`, which no value within `GameLimits.maximumItemValue` comes near.
    public func appliedRoundingUp(to value: Int) -> Int {
        checkedApplied(to: value, roundingUp: true) ?? saturated(value)
    }

    /// `value × ratio`, rounded down to whole gold.
    ///
    /// - Parameter value: A value in gold, at least 0.
    /// - Returns: The largest whole number of gold not above `value × ratio`; `Int.max` (or `Int.min`) when that
    ///   does not fit in an `Int`.
    public func appliedRoundingDown(to value: Int) -> Int {
        checkedApplied(to: value, roundingUp: false) ?? saturated(value)
    }

    /// `value × ratio` rounded to whole gold, or `nil` when it does not fit in an `Int`.
    func checkedApplied(to value: Int, roundingUp: Bool) -> Int? {
        let (product, overflow) = value.multipliedReportingOverflow(by: hundredths)
        guard !overflow else { return nil }
        // `/` truncates toward zero: one more when rounding a positive fraction up, one less when rounding a
        // negative one down. Neither can overflow: the quotient is at most Int.max / 100.
        let (quotient, remainder) = product.quotientAndRemainder(dividingBy: 100)
        if remainder == 0 { return quotient }
        if roundingUp { return product > 0 ? quotient + 1 : quotient }
        return product > 0 ? quotient : quotient - 1
    }

    /// The bound of `Int` on the side of `value × ratio`.
    private func saturated(_ value: Int) -> Int { (value < 0) != (hundredths < 0) ? Int.min : Int.max }

    /// `1.25`, `0.5`, `2`: the shortest decimal form.
    public var description: String {
        let whole = hundredths / 100
        let fraction = abs(hundredths % 100)
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        if fraction == 0 { return "\(sign)\(whole)" }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Orders ratios by size.
    public static func < (lhs: PriceRatio, rhs: PriceRatio) -> Bool { lhs.hundredths < rhs.hundredths }

    /// Decodes a ratio from a JSON number such as `1.25`.
    ///
    /// - Throws: `DecodingError` when the number has more than two decimal places.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Double.self)
        guard let ratio = PriceRatio(value) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(value) has more than two decimal places")
        }
        self = ratio
    }

    /// Encodes the ratio as a JSON number such as `1.25`.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(doubleValue)
    }
}
