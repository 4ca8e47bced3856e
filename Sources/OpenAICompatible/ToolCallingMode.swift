/// How the OpenAI-compatible backend lets the model call tools.
public enum ToolCallingMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Ask the server: native tool calling when its chat template supports tools (llama-server's `/props` says
    /// so in `chat_template_caps.supports_tool_calls`), otherwise constrained output. Servers that do not
    /// describe themselves get native tool calling.
    case automatic
    /// The OpenAI `tools` parameter and `tool_calls` in responses, for models whose template knows tools.
    case native
    /// Tool calling done by Parley through constrained output: the response must be JSON that is either a call
    /// of one of the tools with arguments valid for its schema, or a final reply. Works on any server that can
    /// constrain output to a JSON Schema, even with a model that has never seen a tool (SmolLM2-135M). Each tool
    /// can be called once per turn; after that the model must answer, so a small model cannot loop on a tool.
    /// `maximumResponseTokens` limits the reply; the request allows 48 more tokens for the JSON around it or for a
    /// tool call, and a reply cut short by the limit is used as far as it goes. A tool call the limit cuts off is
    /// asked for once more with 256 tokens of room; if that is cut off too, the turn fails with
    /// `GeneratedContent.ParsingError`.
    case constrained

    /// The mode's name.
    public var description: String { rawValue }
}
