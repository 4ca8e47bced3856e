import Foundation
import GameWorld
import LanguageModels
import ParleyJSON
import SyntheticWorlds

/// The valid inputs the fuzzers start from: Apple-format transcripts, the shipped content pack, a save, an event
/// stream. Files are read from the package this module was built in when they are there (the test fixtures, the
/// `Content/` pack); otherwise the fuzzers start from inputs generated here, so they also run from a copied binary.
enum FuzzCorpus {
    /// The package's root: three levels above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    // MARK: - Transcripts

    /// Apple-format transcript documents: the test fixtures Apple's framework wrote, and one with every kind of
    /// entry and segment.
    static func transcripts() -> [[UInt8]] {
        let folder = packageRoot.appendingPathComponent("Tests/LanguageModelsTests/Fixtures")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        var documents = names.compactMap {
            FileManager.default.contents(atPath: folder.appendingPathComponent($0).path)
        }
        .map { Array($0) }
        let entries: [JSONValue] = richEntries()
        let document: JSONValue = [
            "version": 1, "type": "FoundationModels.Transcript", "transcript": ["entries": .array(entries)],
        ]
        documents.append(Array(document.jsonString().utf8))
        return documents
    }

    /// One entry of each kind, with options, a response format, tool definitions, structured segments and
    /// reasoning, as Apple-format JSON objects.
    static func richEntries() -> [JSONValue] {
        let stock = JSONValue.string(NPCTool.lookUpStock.rawValue)
        return [
            [
                "id": "instructions-1", "role": "instructions",
                "contents": [["type": "text", "id": "instructions-1-text", "text": "You are Mira, a merchant."]],
                "tools": [
                    [
                        "type": "function",
                        "function": [
                            "name": stock, "description": "Looks up an item in the stock.",
                            "parameters": [
                                "type": "object", "title": "Arguments", "required": ["item"],
                                "properties": ["item": ["type": "string"]],
                            ],
                        ],
                    ]
                ],
            ],
            [
                "id": "prompt-1", "role": "user",
                "contents": [
                    ["type": "text", "id": "prompt-1-text", "text": "How much is the lantern? \u{2014} «bitte»"]
                ],
                "options": ["temperature": 0.5, "sampling": ["mode": "greedy"], "maximumResponseTokens": 64],
                "responseFormat": [
                    "type": "jsonSchema",
                    "jsonSchema": [
                        "name": "Deal",
                        "schema": [
                            "type": "object", "title": "Deal", "required": ["price"],
                            "properties": ["price": ["type": "integer"], "note": ["type": "string"]],
                        ],
                    ],
                ],
            ],
            [
                "id": "calls-1", "role": "response",
                "toolCalls": [["id": "call-1", "name": stock, "arguments": #"{"item": "lantern"}"#]],
            ],
            [
                "id": "call-1", "role": "tool", "toolName": stock, "toolCallID": "call-1",
                "contents": [
                    [
                        "type": "structure", "id": "out-1",
                        "structure": [
                            "source": stock,
                            "content": ["items": [["item": "lantern", "price": 25, "ratio": 1.25]], "missing": .null],
                        ],
                    ]
                ],
            ],
            [
                "id": "reasoning-1", "role": "reasoning",
                "contents": [["type": "text", "id": "reasoning-1-text", "text": "The price is fair."]],
                "metadata": ["tokens": 7], "signature": "c2lnbmF0dXJl",
            ],
            [
                "id": "response-1", "role": "response", "assets": ["scripted@1"],
                "contents": [
                    ["type": "text", "id": "response-1-text", "text": "25 gold, friend."],
                    [
                        "type": "structure", "id": "response-1-deal",
                        "structure": ["source": "Deal", "content": ["price": 25, "note": "cheap at that"]],
                    ],
                ],
            ],
        ]
    }

    // MARK: - Content packs

    /// The shipped pack's files (`world.json`, `items.json`, `npcs/*.json`) as bytes, or a small generated pack
    /// when the package's `Content/` is not there.
    static func contentPack() -> [String: [UInt8]] {
        let root = packageRoot.appendingPathComponent("Content")
        let manager = FileManager.default
        var files: [String: [UInt8]] = [:]
        for name in ["world.json", "items.json"] {
            if let data = manager.contents(atPath: root.appendingPathComponent(name).path) { files[name] = Array(data) }
        }
        let npcs = root.appendingPathComponent("npcs")
        for name in ((try? manager.contentsOfDirectory(atPath: npcs.path)) ?? []) where name.hasSuffix(".json") {
            if let data = manager.contents(atPath: npcs.appendingPathComponent(name).path) {
                files["npcs/" + name] = Array(data)
            }
        }
        guard files["world.json"] != nil, files["items.json"] != nil else {
            return SyntheticWorld.files(seed: 5, locations: 4, npcs: 4, items: 12).mapValues { Array($0.utf8) }
        }
        return files
    }

    // MARK: - Event streams

    /// A chat-completions event stream as llama-server sends it: a role chunk, text deltas, a keep-alive comment,
    /// the finish reason with usage and timings, and `[DONE]`.
    static func chatStream(words: [String] = ["Fine", " steel", ",", " fair", " prices", "."]) -> String {
        func chunk(_ delta: JSONValue, finish: JSONValue = .null) -> String {
            let value: JSONValue = ["choices": [["index": 0, "delta": delta, "finish_reason": finish]]]
            return "data: " + value.jsonString() + "\n\n"
        }
        var text = chunk(["role": "assistant", "content": .null])
        for (index, word) in words.enumerated() {
            text += chunk(["content": .string(word)])
            if index == 2 { text += ": ping\n\n" }
        }
        let usage: JSONValue = [
            "choices": [["index": 0, "delta": [:], "finish_reason": "stop"]],
            "usage": ["prompt_tokens": 40, "completion_tokens": .integer(words.count), "total_tokens": 46],
            "timings": ["cache_n": 32, "prompt_n": 8, "prompt_ms": 12.5, "predicted_n": 6, "predicted_ms": 80.0],
        ]
        text += "data: " + usage.jsonString() + "\r\n\r\n"
        text += "data: [DONE]\n\n"
        return text
    }

    /// A stream of native tool-call deltas: the id and name, then the arguments in fragments.
    static func toolCallStream() -> String {
        func chunk(_ delta: JSONValue, finish: JSONValue = .null) -> String {
            let value: JSONValue = ["choices": [["index": 0, "delta": delta, "finish_reason": finish]]]
            return "data: " + value.jsonString() + "\n\n"
        }
        let call = chunk([
            "tool_calls": [
                [
                    "index": 0, "id": "c1", "type": "function",
                    "function": ["name": .string(NPCTool.lookUpStock.rawValue), "arguments": ""],
                ]
            ]
        ])
        let fragments = [#"{"it"#, #"em": "#, #""lantern"}"#].map { fragment in
            chunk(["tool_calls": [["index": 0, "function": ["arguments": .string(fragment)]]]])
        }
        return call + fragments.joined() + chunk([:], finish: "tool_calls") + "data: [DONE]\n\n"
    }
}
