// Arithmetic on counts that come from outside (token limits, counts a server reports, byte totals, prices times
// quantities): it stops at the ends of `Int` instead of trapping, so a huge value gives a clear error later rather
// than a crash. `package`: for Parley's modules above this one (OpenAICompatible, ScriptedModel), not for apps.
// (ParleyHTTP, which depends on no other module of Parley, has its own copy.)

extension Int {
    /// The sum, or `Int.max` (`Int.min`) where it would overflow.
    package func saturatingAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// The product, or `Int.max` (`Int.min`) where it would overflow.
    package func saturatingMultiplied(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}
