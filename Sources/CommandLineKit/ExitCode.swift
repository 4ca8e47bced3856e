/// A process exit status.
///
/// Parley's commands use three: 0 when all went well, 1 when the command ran and found a problem (a pack with
/// errors, a failed load), and 64 (`EX_USAGE` from BSD's `sysexits.h`) when the command line itself is wrong.
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The status as the process reports it.
    public let rawValue: Int32

    /// An exit code from its value.
    ///
    /// - Parameter rawValue: The status, 0 to 255.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// 0: all went well.
    public static let success = ExitCode(rawValue: 0)
    /// 1: the command ran and failed, or found problems.
    public static let failure = ExitCode(rawValue: 1)
    /// 64: the command line was wrong (unknown option, missing argument).
    public static let usage = ExitCode(rawValue: 64)

    /// The status as a number.
    public var description: String { "\(rawValue)" }
}
