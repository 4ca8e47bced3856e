/// News for someone waiting on a model server: a request failed and is sent again, or the server asked to wait.
///
/// A backend sends notices to ``ModelServerContext/notices`` while it retries, so that a player sees why a turn
/// takes long instead of a frozen screen. `OpenAICompatibleLanguageModel` sends them; the scripted model and
/// `MockLanguageModel`, which never retry, send none. The ``description`` is a short lower-case phrase meant to
/// follow a name or a spinner:
///
/// ```
/// the server did not answer; trying again 2/3
/// the server is rate limiting; waiting 20 s as it asks, then trying again 2/3
/// ```
public struct ModelServerNotice: Sendable, Equatable, CustomStringConvertible {
    /// Why the request is sent again.
    public enum Reason: Sendable, Equatable {
        /// No answer came in time (a timeout).
        case noAnswer
        /// The server failed, with this HTTP status when it sent one (`nil`: the connection broke).
        case failed(status: Int?)
        /// The server is rate limiting (HTTP 429).
        case rateLimited
    }

    /// Why the request is sent again.
    public let reason: Reason
    /// The attempt about to be made, from 2.
    public let attempt: Int
    /// How many attempts there are at most (`maximumRetries` + 1).
    public let attempts: Int
    /// How long the backend waits before the attempt: the backoff, or what the server asked for.
    public let wait: Duration

    /// Creates a notice.
    ///
    /// - Parameters:
    ///   - reason: Why the request is sent again.
    ///   - attempt: The attempt about to be made.
    ///   - attempts: The most attempts.
    ///   - wait: The wait before it.
    public init(reason: Reason, attempt: Int, attempts: Int, wait: Duration) {
        self.reason = reason
        self.attempt = attempt
        self.attempts = attempts
        self.wait = wait
    }

    /// For example `the server did not answer; trying again 2/3`.
    public var description: String {
        let again = "trying again \(attempt)/\(attempts)"
        switch reason {
        case .noAnswer: return "the server did not answer; \(again)"
        case .failed(let status?): return "the server failed (HTTP \(status)); \(again)"
        case .failed(nil): return "the connection to the server broke; \(again)"
        case .rateLimited:
            let seconds = Self.wholeSeconds(wait)
            return seconds > 0
                ? "the server is rate limiting; waiting \(seconds) s as it asks, then \(again)"
                : "the server is rate limiting; \(again)"
        }
    }

    /// A duration in whole seconds, rounded up. For Parley's backends, which quote waits in their messages.
    package static func wholeSeconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return attoseconds > 0 ? seconds + 1 : seconds
    }
}
