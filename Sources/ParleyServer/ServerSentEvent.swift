/// One event to send in a `text/event-stream` response (server-sent events).
///
/// ```swift
/// ServerSentEvent(event: "speech", data: #"{"npc":"mira","text":"Ten gold."}"#)
/// ```
///
/// is sent as
///
/// ```text
/// event: speech
/// data: {"npc":"mira","text":"Ten gold."}
///
/// ```
///
/// ``data`` may hold several lines: each becomes its own `data:` line, and a reader joins them back with `\n`
/// (see ``encoded``). Stream events with ``HTTPServerResponse/eventStream(_:status:headers:)``.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type (`event:`), or `nil` for a plain message; a reader's `EventSource` dispatches on it.
    public var event: String?
    /// The payload (`data:`), often one JSON document; it may span lines.
    public var data: String
    /// The event ID (`id:`) a reconnecting reader sends back as `Last-Event-ID`, or `nil`.
    public var id: String?
    /// How long a reader waits before reconnecting (`retry:`), or `nil` to leave it unchanged.
    public var retry: Duration?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - event: The event type, or `nil`.
    ///   - data: The payload.
    ///   - id: The event ID, or `nil`.
    ///   - retry: The reconnection delay, or `nil`.
    public init(event: String? = nil, data: String, id: String? = nil, retry: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
