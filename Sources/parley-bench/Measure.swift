import Foundation
import ParleyBasics

/// Timing and memory helpers for the benchmarks.
enum Measure {
    /// Runs `body` `repetitions` times and returns each run's duration in milliseconds.
    static func milliseconds(repetitions: Int, _ body: () throws -> Void) rethrows -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(repetitions)
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            let duration = try clock.measure(body)
            samples.append(duration.milliseconds)
        }
        return samples
    }

    /// Runs `body` `repetitions` times and returns each run's duration in milliseconds.
    static func milliseconds(repetitions: Int, _ body: () async throws -> Void) async rethrows -> [Double] {
        var samples: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            let start = clock.now
            try await body()
            samples.append((clock.now - start).milliseconds)
        }
        return samples
    }

    /// The time `body` takes, in milliseconds, and what it returns.
    static func time<T>(_ body: () throws -> T) rethrows -> (milliseconds: Double, value: T) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try body()
        return ((clock.now - start).milliseconds, value)
    }

    /// The time `body` takes, in milliseconds, and what it returns.
    static func time<T>(_ body: () async throws -> T) async rethrows -> (milliseconds: Double, value: T) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try await body()
        return ((clock.now - start).milliseconds, value)
    }

    /// The median of samples.
    static func median(_ samples: [Double]) -> Double { percentile(samples, 50) }

    /// The `p`th percentile of samples (nearest rank, interpolated between the two nearest).
    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = p / 100 * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down))
        let high = min(sorted.count - 1, low + 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }

    /// The process's peak resident memory, in MiB (Linux `VmHWM`), or `nil` where unknown.
    static var peakMemoryMiB: Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first
            return kilobytes.map { $0 / 1024 }
        }
        return nil
    }
}

/// Formats a number for the report: `0.42`, `12.3`, `1234`.
func format(_ value: Double, digits: Int = 2) -> String {
    guard value.isFinite else { return "n/a" }
    return String(format: "%.\(digits)f", value)
}

/// Prints a line of the report at once.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// `met` or `MISSED`, for a target line.
func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }
