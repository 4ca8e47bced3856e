/// One event of a server-sent event stream (`text/event-stream`).
///
/// For OpenAI-style streaming, ``data`` holds one JSON chunk, or the `[DONE]` sentinel at the end.
public struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field, or `nil` when the event had none (a plain "message").
    public var event: String?
    /// The `data:` fields joined with `\n`.
    public var data: String
    /// The last event ID in effect: the latest `id:` field seen up to this event, as the SSE standard
    /// specifies; `nil` before any.
    public var id: String?
    /// The `retry:` reconnection time in milliseconds sent since the previous event, if any.
    public var retry: Int?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - event: The event type, or `nil`.
    ///   - data: The data.
    ///   - id: The last event ID, or `nil`.
    ///   - retry: The reconnection time in milliseconds, or `nil`.
    public init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
