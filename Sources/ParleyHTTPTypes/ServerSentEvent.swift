import ParleyBasics

/// One event of a server-sent event stream (`text/event-stream`): one the client read (`ParleyHTTP`'s parser) or
/// one the server sends (`ParleyServer`'s `encoded`).
///
/// ```swift
/// ServerSentEvent(event: "speech", data: #"{"npc":"mira","text":"Ten gold."}"#)
/// ```
///
/// For OpenAI-style streaming, ``data`` holds one JSON chunk, or the `[DONE]` sentinel at the end.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type (`event:`), or `nil` for a plain message; a reader's `EventSource` dispatches on it.
    public var event: String?
    /// The payload: the `data:` fields joined with `\n`; often one JSON document.
    public var data: String
    /// The event ID (`id:`): on the server, the ID a reconnecting reader sends back as `Last-Event-ID`; read by the
    /// client, the last event ID in effect (the latest `id:` seen up to this event, as the SSE standard says).
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

    /// Creates an event whose reconnection delay is in milliseconds, as the `retry:` field writes it.
    ///
    /// - Parameters:
    ///   - event: The event type, or `nil`.
    ///   - data: The payload.
    ///   - id: The event ID, or `nil`.
    ///   - retry: The reconnection delay in milliseconds, or `nil`.
    public init(event: String? = nil, data: String, id: String? = nil, retry: Int?) {
        self.init(event: event, data: data, id: id, retry: retry.map { Duration.milliseconds($0) })
    }

    /// The reconnection delay in whole milliseconds, as the `retry:` field writes it (rounded up), or `nil`.
    public var retryMilliseconds: Int? {
        retry.map { Int(clamping: $0.milliseconds(rounded: .up)) }
    }
}
