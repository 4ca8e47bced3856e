import ParleyBasics
import Testing

/// One conversion from `Duration` to milliseconds, with its rounding chosen by name.
@Suite struct DurationMillisecondsTests {
    /// Each duration with its milliseconds toward zero, up, down, to nearest (ties away from zero), to nearest
    /// (ties to even).
    static let table: [(Duration, [Int64])] = [
        (.zero, [0, 0, 0, 0, 0]),
        (.seconds(2), [2000, 2000, 2000, 2000, 2000]),
        (.microseconds(1_500), [1, 2, 1, 2, 2]),
        (.microseconds(2_500), [2, 3, 2, 3, 2]),
        (.microseconds(1_499), [1, 2, 1, 1, 1]),
        (.microseconds(1_501), [1, 2, 1, 2, 2]),
        (.nanoseconds(1), [0, 1, 0, 0, 0]),
        (.seconds(754) + .microseconds(249_500), [754_249, 754_250, 754_249, 754_250, 754_250]),
        (.microseconds(-1_500), [-1, -1, -2, -2, -2]),
        (.microseconds(-2_500), [-2, -2, -3, -3, -2]),
        (.microseconds(-1_499), [-1, -1, -2, -1, -1]),
        (.nanoseconds(-1), [0, 0, -1, 0, 0]),
        (.seconds(-3), [-3000, -3000, -3000, -3000, -3000]),
    ]

    static let rules: [FloatingPointRoundingRule] = [
        .towardZero, .up, .down, .toNearestOrAwayFromZero, .toNearestOrEven,
    ]

    @Test(arguments: table)
    func wholeMillisecondsAreRoundedAsAsked(_ duration: Duration, _ expected: [Int64]) {
        for (rule, milliseconds) in zip(Self.rules, expected) {
            #expect(duration.milliseconds(rounded: rule) == milliseconds, "\(duration) \(rule)")
        }
        // Away from zero is up for a positive duration and down for a negative one.
        let away = duration < .zero ? expected[2] : expected[1]
        #expect(duration.milliseconds(rounded: .awayFromZero) == away, "\(duration)")
    }

    @Test func justUnderHalfAMillisecondIsNotRoundedUpEvenWhenLarge() {
        // Exact arithmetic: in a Double, 9_999 ms and just under half a millisecond would round to a half.
        let duration =
            Duration.milliseconds(9_999) + .nanoseconds(499_999)
            + Duration(secondsComponent: 0, attosecondsComponent: 999_999_999)
        #expect(duration.milliseconds(rounded: .toNearestOrAwayFromZero) == 9_999)
        #expect(duration.milliseconds(rounded: .up) == 10_000)
    }

    @Test func hugeDurationsSaturateInsteadOfTrapping() {
        let huge = Duration.seconds(Int64.max)
        #expect(huge.milliseconds(rounded: .towardZero) == .max)
        #expect((huge + .nanoseconds(500)).milliseconds(rounded: .up) == .max)
        #expect(Duration.seconds(Int64.min).milliseconds(rounded: .down) == .min)
    }

    @Test(arguments: [
        (Duration.zero, 0.0), (.seconds(1.5), 1500.0), (.microseconds(250), 0.25), (.milliseconds(-40), -40.0),
        (.seconds(754) + .milliseconds(250), 754_250.0),
    ])
    func fractionalMillisecondsKeepTheFraction(_ duration: Duration, _ expected: Double) {
        #expect(duration.milliseconds == expected)
    }
}
