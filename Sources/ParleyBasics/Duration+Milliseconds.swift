// A `Duration` in milliseconds, the unit of libcurl's and SQLite's timeouts, poll(2), saves and reports. One place
// does the arithmetic on `components` (seconds and attoseconds), so that the rounding is chosen by name rather
// than written out again. `package`: for Parley's own modules, not for apps.

extension Duration {
    /// The attoseconds in one millisecond.
    @usableFromInline static let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000

    /// The duration in milliseconds, with its fraction: 1.5 seconds is 1500.0.
    ///
    /// For timings shown or recorded as decimals; exact to well under a microsecond for any duration a program
    /// measures.
    @inlinable
    package var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// The duration in whole milliseconds, rounded as asked, or `Int64.max` (`Int64.min`) beyond those.
    ///
    /// The arithmetic is exact (no floating point), so a duration just under half a millisecond never rounds up.
    ///
    /// ```swift
    /// Duration.microseconds(1_500).milliseconds(rounded: .towardZero)              // 1
    /// Duration.microseconds(1_500).milliseconds(rounded: .up)                      // 2
    /// Duration.microseconds(1_499).milliseconds(rounded: .toNearestOrAwayFromZero) // 1
    /// ```
    ///
    /// - Parameter rule: How a fraction of a millisecond is rounded: `.towardZero` truncates (a timeout that
    ///   must not be longer than asked), `.up` never gives less than the duration (a timeout that must not
    ///   expire early), `.toNearestOrAwayFromZero` is the nearest (a duration written down).
    /// - Returns: The whole milliseconds.
    package func milliseconds(rounded rule: FloatingPointRoundingRule) -> Int64 {
        let (seconds, attoseconds) = components
        // `attoseconds` has the sign of `seconds` and is less than a second: the part of a millisecond it leaves
        // is `rest`, with the same sign.
        let (whole, rest) = attoseconds.quotientAndRemainder(dividingBy: Self.attosecondsPerMillisecond)
        let truncated = seconds.saturatingMultiplied(by: 1000).saturatingAdding(whole)
        guard rest != 0 else { return truncated }
        let awayFromZero: Int64 = rest > 0 ? 1 : -1
        let twiceRest = rest.magnitude * 2
        let adjustment: Int64 =
            switch rule {
            case .towardZero: 0
            case .awayFromZero: awayFromZero
            case .up: rest > 0 ? 1 : 0
            case .down: rest < 0 ? -1 : 0
            case .toNearestOrAwayFromZero: twiceRest >= Self.attosecondsPerMillisecond.magnitude ? awayFromZero : 0
            case .toNearestOrEven:
                twiceRest > Self.attosecondsPerMillisecond.magnitude
                    || (twiceRest == Self.attosecondsPerMillisecond.magnitude && !truncated.isMultiple(of: 2))
                    ? awayFromZero : 0
            @unknown default: 0
            }
        return truncated.saturatingAdding(adjustment)
    }
}
