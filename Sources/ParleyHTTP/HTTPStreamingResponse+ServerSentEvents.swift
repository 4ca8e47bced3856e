extension HTTPStreamingResponse {
    /// The body parsed as server-sent events (`text/event-stream`), as sent by llama-server and OpenAI-style
    /// APIs when streaming.
    ///
    /// Reads the body once, like ``lines``.
    public var serverSentEvents: ServerSentEventStream<HTTPBodyLines> {
        ServerSentEventStream(lines)
    }
}
