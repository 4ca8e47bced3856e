// Arithmetic on counts that come from outside (token limits, counts a server reports, byte totals, prices times
// quantities, durations): it stops at the ends of the type instead of trapping, so a huge value gives a clear
// error later rather than a crash. `package`: for Parley's own modules, not for apps.

extension FixedWidthInteger {
    /// The sum, or the type's largest (smallest) value where it would overflow.
    ///
    /// ```swift
    /// Int.max.saturatingAdding(1)   // Int.max
    /// 5.saturatingAdding(-7)        // -2
    /// ```
    ///
    /// - Parameter other: The number to add.
    /// - Returns: `self + other`, or the bound it passes.
    @inlinable
    package func saturatingAdding(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// The product, or the type's largest (smallest) value where it would overflow.
    ///
    /// ```swift
    /// Int.max.saturatingMultiplied(by: 2)    // Int.max
    /// Int.max.saturatingMultiplied(by: -2)   // Int.min
    /// ```
    ///
    /// - Parameter other: The number to multiply by.
    /// - Returns: `self * other`, or the bound it passes.
    @inlinable
    package func saturatingMultiplied(by other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}

extension FixedWidthInteger {
    /// A floating-point value from outside (a save, a server's JSON, a measured time) as an integer that never traps:
    /// rounded toward zero where it fits, the type's largest (smallest) value beyond it, 0 for NaN.
    ///
    /// `Int(someDouble)` traps on NaN, on infinities and on anything at or past ±2^63, which is `Double(Int.max)`
    /// itself; this is the conversion to use for any value Parley did not compute.
    ///
    /// ```swift
    /// Int(saturating: 12.9)              // 12
    /// Int(saturating: Double(Int.max))   // Int.max
    /// Int(saturating: -1e300)            // Int.min
    /// Int(saturating: Double.nan)        // 0
    /// ```
    ///
    /// - Parameter value: The value.
    @inlinable
    package init<Source: BinaryFloatingPoint>(saturating value: Source) {
        if value.isNaN {
            self = 0
        } else if let exact = Self(exactly: value.rounded(.towardZero)) {
            self = exact
        } else {
            self = value < 0 ? .min : .max
        }
    }
}
