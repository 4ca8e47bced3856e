import Foundation
import HTTPTestSupport
import ParleyJSON

/// Chat-completion event streams as llama-server sends them, for the loopback servers of these tests.
enum ChatStreams {
    /// One `data:` event carrying a chunk with `delta`.
    static func chunk(_ delta: JSONValue, finish: JSONValue = .null) -> String {
        let value: JSONValue = ["choices": [["index": 0, "delta": delta, "finish_reason": finish]]]
        return "data: " + value.jsonString() + "\n\n"
    }

    /// A streamed text answer, word by word, with its end.
    static func text(_ reply: String) -> [String] {
        words(reply).map { chunk(["content": .string($0)]) } + [chunk([:], finish: "stop"), "data: [DONE]\n\n"]
    }

    /// A streamed native tool call, its arguments in two fragments.
    static func toolCall(_ name: String, arguments: String, id: String = "call-1") -> [String] {
        let half = arguments.index(arguments.startIndex, offsetBy: arguments.count / 2)
        return [
            chunk([
                "tool_calls": [
                    [
                        "index": 0, "id": .string(id), "type": "function",
                        "function": ["name": .string(name), "arguments": ""],
                    ]
                ]
            ]),
            chunk(["tool_calls": [["index": 0, "function": ["arguments": .string(String(arguments[..<half]))]]]]),
            chunk(["tool_calls": [["index": 0, "function": ["arguments": .string(String(arguments[half...]))]]]]),
            chunk([:], finish: "tool_calls"), "data: [DONE]\n\n",
        ]
    }

    /// The words of a reply, each with the space before it.
    static func words(_ reply: String) -> [String] {
        var result: [String] = []
        for word in reply.split(separator: " ", omittingEmptySubsequences: false) {
            result.append(result.isEmpty ? String(word) : " " + word)
        }
        return result
    }

    /// The last user message of a chat-completions request, or `""`.
    static func lastUserMessage(_ request: LoopbackRequest) -> String {
        guard let body = try? JSONValue(parsing: Array(request.body)) else { return "" }
        let messages = body["messages"]?.arrayValue ?? []
        return messages.last { $0["role"]?.stringValue == "user" }?["content"]?.stringValue ?? ""
    }
}
