/// What one fuzzing run did: how many inputs it tried, how many were accepted, how many were rejected with a clear
/// error, and every finding.
///
/// Crashes are not counted: a crash ends the process. A run that returns has had none, and a run whose
/// ``findings`` are empty rejected every bad input with an error that says what is wrong.
public struct FuzzSummary: Sendable, CustomStringConvertible {
    /// What was fuzzed, for example `transcript decoder`.
    public var target: String
    /// The seed; the same seed and iteration count give the same inputs.
    public var seed: UInt64
    /// The inputs tried.
    public var iterations: Int
    /// Inputs that were accepted (parsed, loaded).
    public var accepted: Int
    /// Inputs that were rejected with a clear error.
    public var rejected: Int
    /// Inputs handled badly, at most ``findingLimit`` of them.
    public var findings: [FuzzFinding]
    /// How many inputs were handled badly, including those not kept in ``findings``.
    public var findingCount: Int
    /// How long the run took.
    public var duration: Duration

    /// The most findings kept; more are only counted.
    public static let findingLimit = 20

    /// An empty summary, before the first input.
    ///
    /// - Parameters:
    ///   - target: What is fuzzed.
    ///   - seed: The seed.
    public init(target: String, seed: UInt64) {
        self.target = target
        self.seed = seed
        iterations = 0
        accepted = 0
        rejected = 0
        findings = []
        findingCount = 0
        duration = .zero
    }

    /// Whether every input was accepted or rejected with a clear error.
    public var passed: Bool { findingCount == 0 }

    /// Records a finding.
    ///
    /// - Parameter finding: The input handled badly.
    public mutating func record(_ finding: FuzzFinding) {
        findingCount += 1
        if findings.count < Self.findingLimit { findings.append(finding) }
    }

    /// One line per run, then one per finding:
    /// `transcript decoder: 20000 inputs, 3120 accepted, 16880 rejected with a clear error, 0 findings (1.2 s)`.
    public var description: String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        var text =
            "\(target): \(iterations) inputs, \(accepted) accepted, \(rejected) rejected with a clear error, "
            + "\(findingCount) finding\(findingCount == 1 ? "" : "s") (seed \(seed), "
            + "\((seconds * 10).rounded() / 10) s)"
        for finding in findings { text += "\n  " + finding.description }
        if findingCount > findings.count { text += "\n  … and \(findingCount - findings.count) more" }
        return text
    }
}
