public import ParleyHTTPTypes

/// One event of a server-sent event stream (`text/event-stream`), as ``SSEParser`` reads it: the one of
/// `ParleyHTTPTypes`, shared with the server.
///
/// For OpenAI-style streaming, `data` holds one JSON chunk, or the `[DONE]` sentinel at the end.
public typealias ServerSentEvent = ParleyHTTPTypes.ServerSentEvent
