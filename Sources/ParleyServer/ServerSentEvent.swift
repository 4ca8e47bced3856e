public import ParleyHTTPTypes

/// One event to send in a `text/event-stream` response (server-sent events): the one of `ParleyHTTPTypes`, shared
/// with the client.
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
public typealias ServerSentEvent = ParleyHTTPTypes.ServerSentEvent
