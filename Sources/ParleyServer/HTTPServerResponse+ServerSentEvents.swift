extension HTTPServerResponse {
    /// The header fields of an event stream: `Content-Type: text/event-stream` and `Cache-Control: no-cache`.
    static func eventStreamHeaders(_ headers: HTTPFields) -> HTTPFields {
        var all = headers
        if !all.contains(name: "Content-Type") { all["Content-Type"] = "text/event-stream" }
        if !all.contains(name: "Cache-Control") { all["Cache-Control"] = "no-cache" }
        return all
    }

    /// A `text/event-stream` response that sends each event of a sequence as it arrives.
    ///
    /// ```swift
    /// let (events, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
    /// let producer = Task {
    ///     for piece in pieces { continuation.yield(ServerSentEvent(event: "speech", data: piece)) }
    ///     continuation.finish()
    /// }
    /// continuation.onTermination = { _ in producer.cancel() }   // the client went away
    /// return .eventStream(events)
    /// ```
    ///
    /// When the client goes away, the task iterating `events` is cancelled, which ends an `AsyncStream` and runs
    /// its `onTermination`.
    ///
    /// - Parameters:
    ///   - events: The events.
    ///   - status: The status.
    ///   - headers: More header fields.
    /// - Returns: The response.
    public static func eventStream<Events: AsyncSequence & Sendable>(
        _ events: Events, status: HTTPStatus = .ok, headers: HTTPFields = [:]
    ) -> HTTPServerResponse where Events.Element == ServerSentEvent {
        eventStream(status: status, headers: headers) { writer in
            for try await event in events {
                try await writer.send(event)
            }
        }
    }

    /// A `text/event-stream` response whose events a closure sends with ``ResponseBodyWriter/send(_:)``.
    ///
    /// When the client goes away, the closure's task is cancelled and its next send throws.
    ///
    /// - Parameters:
    ///   - status: The status.
    ///   - headers: More header fields.
    ///   - produce: Sends the events.
    /// - Returns: The response.
    public static func eventStream(
        status: HTTPStatus = .ok, headers: HTTPFields = [:],
        _ produce: @escaping @Sendable (ResponseBodyWriter) async throws -> Void
    ) -> HTTPServerResponse {
        HTTPServerResponse(
            status: status, headers: eventStreamHeaders(headers), body: .stream(ResponseBodyStream(produce)))
    }
}
