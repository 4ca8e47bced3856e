import ParleyHTTP

/// Streams as llama-server sends them, for parser tests across chunk boundaries.
enum RecordedStreams {
    /// A streamed chat completion: role chunk, a keep-alive ping, content with multi-byte characters, a final
    /// chunk with usage and timings, and the `[DONE]` sentinel. Line ends are `\n`, as llama-server writes them.
    static let llamaServerChat = [
        #"data: {"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"#
            + #""created":1732870000,"id":"chatcmpl-x1","model":"qwen2.5","object":"chat.completion.chunk"}"#,
        "",
        ": ping",
        "",
        #"data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"Grüß dich, "}}],"#
            + #""created":1732870000,"id":"chatcmpl-x1","object":"chat.completion.chunk"}"#,
        "",
        #"data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"Reisender 🗡️"}}],"#
            + #""created":1732870000,"id":"chatcmpl-x1","object":"chat.completion.chunk"}"#,
        "",
        #"data: {"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"created":1732870001,"#
            + #""id":"chatcmpl-x1","object":"chat.completion.chunk","usage":{"completion_tokens":5,"#
            + #""prompt_tokens":31,"total_tokens":36},"timings":{"cache_n":12,"prompt_n":19,"predicted_n":5}}"#,
        "",
        "data: [DONE]",
        "",
        "",
    ].joined(separator: "\n")

    /// The events in ``llamaServerChat``.
    static let llamaServerChatEvents: [ServerSentEvent] =
        llamaServerChat
        .split(separator: "\n", omittingEmptySubsequences: true)
        .filter { $0.hasPrefix("data: ") }
        .map { ServerSentEvent(data: String($0.dropFirst("data: ".count))) }
}
