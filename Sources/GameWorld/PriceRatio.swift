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
    /// - Returns: The smallest whole number of gold not below `value × ratio`.
    public func appliedRoundingUp(to value: Int) -> Int {
        let product = value * hundredths
        return product >= 0 ? (product + 99) / 100 : -((-product) / 100)
    }

    /// `value × ratio`, rounded down to whole gold.
    ///
    /// - Parameter value: A value in gold, at least 0.
    /// - Returns: The largest whole number of gold not above `value × ratio`.
    public func appliedRoundingDown(to value: Int) -> Int {
        let product = value * hundredths
        return product >= 0 ? product / 100 : -((-product + 99) / 100)
    }

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
