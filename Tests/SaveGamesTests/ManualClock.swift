import Foundation
import Synchronization

/// A clock tests move forward by hand.
final class ManualClock: Sendable {
    private let seconds = Mutex(1_750_000_000.0)

    /// The clock as a store takes it.
    var now: @Sendable () -> Date {
        { [self] in Date(timeIntervalSince1970: self.seconds.withLock { $0 }) }
    }

    /// Moves the clock forward.
    func advance(_ interval: Double) {
        seconds.withLock { $0 += interval }
    }
}
