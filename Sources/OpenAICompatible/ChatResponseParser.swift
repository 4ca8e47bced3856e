import Foundation
import LanguageModels
import ParleyBasics
import ParleyHTTP
import ParleyJSON

/// Reads chat-completion responses, whole or streamed, into `Generation`s.
///
/// Tolerant of what real servers send: tool-call `arguments` as a JSON string (OpenAI, llama-server) or an
/// object (Ollama); missing tool-call ids; `finish_reason` `tool_calls` or `tool`; usage in `usage` and in
/// llama-server's `timings`. What the model said (text, reasoning, tool-call arguments, a refusal) has the API key
/// removed, should the server echo it.
enum ChatResponseParser {
    /// A response that is not the chat completion that was asked for.
    struct InvalidResponse: Error {
        var message: String
        var body: String
    }

    /// Parses a whole (non-streamed) response.
    ///
    /// - Parameters:
    ///   - body: The response body.
    ///   - constrained: The constrained tool-calling format, when the request used it.
    ///   - makeCallID: Makes ids for tool calls that come without one.
    ///   - redactor: Removes the API key from what the model said.
    static func generation(
        from body: Data, constrained: ConstrainedToolCalling?, makeCallID: () -> String,
        redactor: SecretRedactor = SecretRedactor()
    ) throws -> Generation {
        let text = String(decoding: body, as: UTF8.self)
        guard let json = try? JSONValue(parsing: Array(body)) else {
            throw InvalidResponse(message: "the body is not JSON", body: text)
        }
        guard let message = json["choices"]?[0]?["message"] else {
            throw InvalidResponse(message: "it has no choices[0].message", body: text)
        }
        if let refusal = message["refusal"]?.stringValue, !refusal.isEmpty {
            throw LanguageModelError.refusal(.init(explanation: redactor.redactKnown(refusal)))
        }
        let reasoning = message["reasoning_content"]?.stringValue.flatMap {
            $0.isEmpty ? nil : redactor.redactKnown($0)
        }
        let content = redactor.redactKnown(message["content"]?.stringValue ?? "")
        let usage = self.usage(from: json)
        if let calls = message["tool_calls"]?.arrayValue, !calls.isEmpty {
            let converted = try calls.map {
                try toolCall(from: $0, makeCallID: makeCallID, body: text, redactor: redactor)
            }
            return Generation(output: .toolCalls(converted), reasoning: reasoning, usage: usage)
        }
        if let constrained {
            return Generation(
                output: try constrained.parse(content, makeCallID: makeCallID), reasoning: reasoning, usage: usage)
        }
        return Generation(output: .text(content), reasoning: reasoning, usage: usage)
    }

    /// A tool call from its JSON.
    static func toolCall(
        from call: JSONValue, makeCallID: () -> String, body: String, redactor: SecretRedactor = SecretRedactor()
    ) throws -> Transcript.ToolCall {
        // The docs of some servers show flat {name, arguments} calls; accept them too.
        let function = call["function"] ?? call
        guard let name = function["name"]?.stringValue, !name.isEmpty else {
            throw InvalidResponse(message: "a tool call has no function name", body: body)
        }
        let arguments: GeneratedContent
        switch function["arguments"] {
        case .string(let text)?:
            arguments = try parseArguments(redactor.redactKnown(text), tool: name)
        case .object(let object)?:
            arguments = try parseArguments(redactor.redactKnown(JSONValue.object(object).jsonString()), tool: name)
        default:
            arguments = GeneratedContent(jsonValue: [:])
        }
        let id = call["id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? makeCallID()
        return Transcript.ToolCall(id: id, toolName: name, arguments: arguments)
    }

    /// Tool-call arguments from their JSON text; empty text means no arguments.
    static func parseArguments(_ text: String, tool: String) throws -> GeneratedContent {
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return GeneratedContent(jsonValue: [:]) }
        guard let value = try? JSONValue(parsing: text) else {
            throw GeneratedContent.ParsingError(
                rawContent: text,
                debugDescription: "The arguments the model generated for \(tool) are not complete JSON.")
        }
        return GeneratedContent(jsonValue: value)
    }

    /// Token counts and timings from `usage` and llama-server's `timings`.
    static func usage(from json: JSONValue) -> GenerationUsage? {
        let usage = json["usage"]
        let timings = json["timings"]
        guard usage?.objectValue != nil || timings?.objectValue != nil else { return nil }
        // Counts come from the server: read and added without trapping, whatever it sends (`2^63-1`, `1e300` and
        // beyond give `Int.max`, a negative count 0).
        func count(_ value: JSONValue?) -> Int? { value?.saturatingIntValue.map { max($0, 0) } }
        let cacheN = count(timings?["cache_n"])
        let promptN = count(timings?["prompt_n"])
        let promptTokens =
            count(usage?["prompt_tokens"]) ?? promptN.map { $0.saturatingAdding(cacheN ?? 0) } ?? 0
        let cached = count(usage?["prompt_tokens_details"]?["cached_tokens"]) ?? cacheN
        return GenerationUsage(
            promptTokens: promptTokens, cachedPromptTokens: cached,
            completionTokens: count(usage?["completion_tokens"]) ?? count(timings?["predicted_n"]) ?? 0,
            reasoningTokens: count(usage?["completion_tokens_details"]?["reasoning_tokens"]),
            promptSeconds: timings?["prompt_ms"]?.doubleValue.map { $0 / 1000 },
            generationSeconds: timings?["predicted_ms"]?.doubleValue.map { $0 / 1000 })
    }
}
