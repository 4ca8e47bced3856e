extension Replay {
    /// When a replay stops early: it is asked before each turn, and once it has passed, the replay answers with the
    /// turns replayed so far (``Report/stoppedEarly``). A turn already running ends within the turn's own time limit.
    ///
    /// ```swift
    /// let report = await Replay.run(recordings, pack: pack, models: models, until: .after(.seconds(120)))
    /// if report.stoppedEarly { print("\(report.notReplayed) turns were not replayed") }
    /// ```
    public struct Deadline: Sendable {
        /// Whether the deadline has passed.
        public let hasPassed: @Sendable () -> Bool

        /// A deadline that passes when `hasPassed` says so: a test's gate or counter, or a clock of its own.
        ///
        /// - Parameter hasPassed: Asked before each turn.
        public init(hasPassed: @escaping @Sendable () -> Bool) {
            self.hasPassed = hasPassed
        }

        /// A deadline `duration` from now, on the continuous clock.
        ///
        /// - Parameter duration: How long the replay may run; zero or less replays nothing.
        /// - Returns: The deadline.
        public static func after(_ duration: Duration) -> Deadline {
            let end = ContinuousClock.now + duration
            return Deadline { ContinuousClock.now >= end }
        }

        /// No deadline: every turn is replayed.
        public static let never = Deadline { false }
    }
}
