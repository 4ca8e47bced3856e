import LanguageModels
import ParleyJSON

/// Tool calling through constrained output, for models without native tool calling.
///
/// The model is told, in the system message, which tools exist and how to call them; its output is constrained
/// to a JSON Schema meaning "a call of one of these tools with valid arguments, or a final reply":
///
/// ```json
/// {"tool": "lookUpStock", "arguments": {"item": "lantern"}}
/// {"reply": "The lantern is 12 gold."}
/// {"response": { ...content following the requested schema... }}    (guided generation only)
/// ```
///
/// The parsed JSON becomes the same `.toolCalls` and `.response` entries native tool calling gives.
struct ConstrainedToolCalling {
    let tools: [Transcript.ToolDefinition]
    /// The schema of a structured answer, when the request asks for one.
    let responseSchema: GenerationSchema?

    /// The tools the model may still call in this turn: each tool once per turn. Small models given a tool's
    /// result tend to call it again and again; once every tool has been called, only an answer is allowed.
    static func callableTools(_ request: GenerationRequest) -> [Transcript.ToolDefinition] {
        var called = Set<String>()
        for entry in request.transcript.reversed() {
            if case .prompt = entry { break }
            if case .toolCalls(let calls) = entry { called.formUnion(calls.map(\.toolName)) }
        }
        return request.tools.filter { !called.contains($0.name) }
    }

    /// The instructions that teach the model the format; appended to the system message. The text depends only
    /// on the tool definitions, so it is the same on every turn and the prompt prefix stays cacheable.
    static func systemPrompt(for tools: [Transcript.ToolDefinition]) -> String {
        var lines = [
            "You can use tools. Answer with one JSON object and nothing else:",
            #"- to call a tool: {"tool": "<tool name>", "arguments": {<arguments>}}"#,
            #"- to answer: {"reply": "<what you say>"}"#,
            "After a tool call you receive its result; then answer or call another tool.",
            "Tools:",
        ]
        for tool in tools {
            lines.append("- \(tool.name): \(tool.description) Arguments: \(tool.parameters.jsonSchema.jsonString())")
        }
        return lines.joined(separator: "\n")
    }

    /// The JSON Schema of the model's output: one branch per tool, and one for the answer.
    var outputSchema: JSONValue {
        var definitions = JSONObject()
        var branches: [JSONValue] = []
        for tool in tools {
            var parameters = tool.parameters.jsonSchema.objectValue ?? JSONObject()
            // Nested types of the parameters move to the top, where their `$ref`s point.
            if let nested = parameters["$defs"]?.objectValue {
                for (name, definition) in nested where !definitions.contains(key: name) {
                    definitions[name] = definition
                }
                parameters["$defs"] = nil
            }
            branches.append(
                object([
                    ("tool", ["type": "string", "const": .string(tool.name)]), ("arguments", .object(parameters)),
                ]))
        }
        if let responseSchema {
            var schema = responseSchema.jsonSchema.objectValue ?? JSONObject()
            if let nested = schema["$defs"]?.objectValue {
                for (name, definition) in nested where !definitions.contains(key: name) {
                    definitions[name] = definition
                }
                schema["$defs"] = nil
            }
            branches.append(object([("response", .object(schema))]))
        } else {
            branches.append(object([("reply", ["type": "string"])]))
        }
        var schema = JSONObject([("anyOf", .array(branches))])
        if !definitions.isEmpty { schema["$defs"] = .object(definitions) }
        return .object(schema)
    }

    private func object(_ properties: [(String, JSONValue)]) -> JSONValue {
        [
            "type": "object",
            "properties": .object(JSONObject(properties)),
            "required": .array(properties.map { .string($0.0) }),
            "additionalProperties": false,
        ]
    }

    /// What a history entry looked like in the model's own output format.
    static func assistantContent(for calls: Transcript.ToolCalls) -> String {
        calls.map { call in
            JSONValue.object(JSONObject([("tool", .string(call.toolName)), ("arguments", call.arguments.jsonValue)]))
                .jsonString()
        }.joined(separator: "\n")
    }

    /// A reply as the model writes it in this format.
    static func assistantContent(forReply text: String) -> String {
        JSONValue.object(JSONObject([("reply", .string(text))])).jsonString()
    }

    /// The tool output as the model reads it: a user message, since templates without tools know no `tool` role.
    static func userContent(for output: Transcript.ToolOutput) -> String {
        "Result of \(output.toolName): \(output.segments.map(\.description).joined(separator: "\n"))"
    }

    /// Reads the model's complete output.
    ///
    /// - Throws: `GeneratedContent.ParsingError` when it is not one of the three forms.
    func parse(_ text: String, makeCallID: () -> String) throws -> Generation.Output {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            // A reply cut short by maximumResponseTokens is still what the model said, as with any other model;
            // a cut-off tool call or answer cannot be used.
            if let reply = Self.partialReply(text) { return .text(reply) }
            throw GeneratedContent.ParsingError(
                rawContent: text, debugDescription: "The model's output is not complete JSON: \(error).")
        }
        if let name = value["tool"]?.stringValue {
            let arguments = value["arguments"] ?? [:]
            return .toolCalls([
                Transcript.ToolCall(id: makeCallID(), toolName: name, arguments: GeneratedContent(jsonValue: arguments))
            ])
        }
        if let reply = value["reply"]?.stringValue { return .text(reply) }
        if let response = value["response"] { return .structure(GeneratedContent(jsonValue: response)) }
        throw GeneratedContent.ParsingError(
            rawContent: text, debugDescription: #"Expected {"tool": ...}, {"reply": ...} or {"response": ...}."#)
    }

    /// Whether a partial output that does not parse is a tool call cut off by `max_tokens`, worth asking again
    /// with more room.
    static func isCutOffToolCall(_ text: String) -> Bool {
        guard let partial = try? JSONValue.parse(Array(text.utf8), options: .init(allowsIncompleteDocument: true))
        else { return false }
        return partial.value["tool"] != nil
    }

    /// The reply text so far in a partial output, for streaming it as it is generated.
    static func partialReply(_ text: String) -> String? {
        guard let partial = try? JSONValue.parse(Array(text.utf8), options: .init(allowsIncompleteDocument: true))
        else {
            return nil
        }
        return partial.value["reply"]?.stringValue
    }
}
