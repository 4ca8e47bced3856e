/// What the caller of a backend tells it about the requests it makes on the caller's behalf: when they must be
/// over, and where news goes while the caller waits.
///
/// The context is a task-local value, so it reaches every request of a turn (each step of a tool loop, each
/// retry), also those made by tasks the turn starts, without passing through the `LanguageModel` protocol:
///
/// ```swift
/// let (notices, sink) = AsyncStream<ModelServerNotice>.makeStream()
/// let context = ModelServerContext(deadline: .now + .seconds(60), notices: sink)
/// let stream = ModelServerContext.$current.withValue(context) {
///     session.streamResponse(to: "Do you sell lanterns?")
/// }
/// ```
///
/// It belongs to no backend: any backend that waits on something outside the process may honour the deadline and
/// announce its retries. `OpenAICompatibleLanguageModel` does both: with a deadline, it does not start a wait that
/// would end after it (a 429 whose `Retry-After` is longer than the time left fails at once with
/// `LanguageModelError.rateLimited`, saying how long the server asked to wait), and it sends a `ModelServerNotice`
/// before each retry. The scripted model and `MockLanguageModel` ignore it. Stopping work at the deadline is the
/// caller's part (cancel the task); the engine's `Game` does.
public struct ModelServerContext: Sendable {
    /// When the caller stops waiting, or `nil` for no limit.
    public var deadline: ContinuousClock.Instant?
    /// Where retries and rate limits are announced, or `nil` to announce nothing.
    public var notices: AsyncStream<ModelServerNotice>.Continuation?

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - deadline: When the caller stops waiting.
    ///   - notices: Where notices go.
    public init(deadline: ContinuousClock.Instant? = nil, notices: AsyncStream<ModelServerNotice>.Continuation? = nil) {
        self.deadline = deadline
        self.notices = notices
    }

    /// The context of the current task: no deadline and no notices unless a caller bound one.
    @TaskLocal public static var current = ModelServerContext()

    /// The time left before the deadline, never negative; `nil` without a deadline. For Parley's backends.
    package var timeLeft: Duration? {
        deadline.map { max(.zero, $0 - ContinuousClock.now) }
    }
}
