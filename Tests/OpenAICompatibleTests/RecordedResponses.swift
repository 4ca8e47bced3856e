// Responses recorded from llama-server (SmolLM2-135M-Instruct) and shaped after OpenAI's and Ollama's, for the
// wire-layer tests.

enum Recorded {
    static let llamaChat = #"""
        {"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","content":"I sell lanterns and rope."}}],"created":1795953417,"model":"SmolLM2-135M-Instruct","system_fingerprint":"b0-unknown","object":"chat.completion","usage":{"completion_tokens":7,"prompt_tokens":28,"total_tokens":35,"prompt_tokens_details":{"cached_tokens":20}},"id":"chatcmpl-4PeT","timings":{"cache_n":20,"prompt_n":8,"prompt_ms":120.5,"predicted_n":7,"predicted_ms":250.0}}
        """#

    static let llamaStream: String = [
        #"data: {"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"object":"chat.completion.chunk"}"#,
        "",
        #"data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"I"}}],"object":"chat.completion.chunk"}"#,
        "",
        ": ping",
        "",
        #"data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"'m glad"}}],"object":"chat.completion.chunk"}"#,
        "",
        #"data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":" you're here — café!"}}],"object":"chat.completion.chunk"}"#,
        "",
        #"data: {"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"object":"chat.completion.chunk"}"#,
        "",
        #"data: {"choices":[],"object":"chat.completion.chunk","usage":{"completion_tokens":8,"prompt_tokens":32,"total_tokens":40,"prompt_tokens_details":{"cached_tokens":5}},"timings":{"cache_n":5,"prompt_n":27,"prompt_ms":1315.36,"predicted_n":8,"predicted_ms":1271.963}}"#,
        "",
        "data: [DONE]",
        "",
        "",
    ].joined(separator: "\n")

    static let openAIToolCallStream: String = [
        #"data: {"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_abc","type":"function","function":{"name":"lookUpStock","arguments":""}}]}}]}"#,
        "",
        #"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"it"}}]}}]}"#,
        "",
        #"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_def","type":"function","function":{"name":"appraise","arguments":"{}"}}]}}]}"#,
        "",
        #"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"em\": \"rope\"}"}}]}}]}"#,
        "",
        #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
        "",
        "data: [DONE]",
        "",
        "",
    ].joined(separator: "\n")

    static let constrainedReplyStream: String = [
        #"data: {"choices":[{"index":0,"delta":{"content":"{\n  \"re"}}]}"#,
        "",
        #"data: {"choices":[{"index":0,"delta":{"content":"ply\": \"Twelve"}}]}"#,
        "",
        #"data: {"choices":[{"index":0,"delta":{"content":" gold, \\\"sturdy\\\"."}}]}"#,
        "",
        #"data: {"choices":[{"index":0,"delta":{"content":"\"\n}"},"finish_reason":"stop"}]}"#,
        "",
        "data: [DONE]",
        "",
        "",
    ].joined(separator: "\n")

    static let ollamaToolCall = #"""
        {"choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"lookUpStock","arguments":{"item":"lantern"}}}]},"finish_reason":"tool_calls"}]}
        """#

    static let llamaContextError = #"""
        {"error":{"code":400,"message":"request (731 tokens) exceeds the available context size (512 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":731,"n_ctx":512}}
        """#

    static let openAIContextError = #"""
        {"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9034 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}
        """#

    static let props = #"""
        {"default_generation_settings":{"n_ctx":1024},"total_slots":1,"model_alias":"SmolLM2-135M-Instruct","model_path":"/models/SmolLM2-135M-Instruct.gguf","build_info":"b6543-abc","chat_template_caps":{"supports_tool_calls":false,"supports_tools":false}}
        """#
}
