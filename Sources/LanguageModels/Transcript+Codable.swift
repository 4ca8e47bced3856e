import Foundation
import ParleyJSON

// Apple's transcript JSON: {"version":1,"type":"FoundationModels.Transcript","transcript":{"entries":[...]}}.
// The format is documented in docs/transcript-format.md; this file is its one implementation.

extension Transcript: Codable {
    /// Decodes a transcript from Apple's JSON format.
    ///
    /// Transcripts written by Apple's framework and by Parley decode. What a newer framework adds is kept and written
    /// back: entries of unknown roles (`Transcript.Entry.unknown`), segments of unknown types
    /// (`Transcript.Segment.unknown`), and members this version does not read (see docs/transcript-format.md).
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the entry index and the problem, for example
    ///   `entry 3 (role "tool"): "toolCallID" is missing`.
    public init(from decoder: any Decoder) throws {
        self = try TranscriptJSON.decode(try JSONValue(from: decoder), codingPath: decoder.codingPath)
    }

    /// Encodes the transcript in Apple's JSON format.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try TranscriptJSON.encode(self).encode(to: encoder)
    }

    /// The transcript as Apple-format JSON text, with keys in a fixed order: the same transcript always gives the
    /// same bytes, which suits save files, golden files and diffs better than `JSONEncoder`'s output.
    ///
    /// - Parameter prettyPrinted: Indent the JSON for people to read.
    /// - Returns: The JSON text.
    public func jsonString(prettyPrinted: Bool = false) -> String {
        TranscriptJSON.encode(self).jsonString(prettyPrinted ? .prettyPrinted : [])
    }

    /// Decodes a transcript from Apple-format JSON text, keeping the order of structured content's properties.
    ///
    /// - Parameter json: The JSON text.
    /// - Throws: `DecodingError.dataCorrupted` for text that is not JSON (with line and column) or is not a
    ///   transcript (with the entry index and the problem).
    public init(json: String) throws {
        try self.init(jsonBytes: Array(json.utf8))
    }

    /// Decodes a transcript from Apple-format JSON bytes, keeping the order of structured content's properties.
    ///
    /// - Parameter jsonData: The JSON's UTF-8 bytes.
    /// - Throws: `DecodingError.dataCorrupted`; see `init(json:)`.
    public init(jsonData: Data) throws {
        try self.init(jsonBytes: Array(jsonData))
    }

    private init(jsonBytes: [UInt8]) throws {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: jsonBytes)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [], debugDescription: "The transcript is not valid JSON: \(error)",
                    underlyingError: error))
        }
        self = try TranscriptJSON.decode(value, codingPath: [])
    }
}

/// The conversion between transcripts and Apple's JSON, both ways.
enum TranscriptJSON {
    static let type = "FoundationModels.Transcript"

    // MARK: - Encoding

    static func encode(_ transcript: Transcript) -> JSONValue {
        let entries = JSONValue.array(transcript.map(encode))
        // A transcript read from JSON keeps its version and the members this version does not know, around the
        // entries written now.
        guard let format = transcript.format.object else {
            return ["version": 1, "type": .string(type), "transcript": ["entries": entries]]
        }
        // Apple's order first (version, type, transcript with its entries), then what this version does not know,
        // so that a transcript is written the same way whichever order its file had.
        var body = JSONObject([("entries", entries)])
        for (key, value) in format["transcript"]?.objectValue ?? JSONObject() where key != "entries" {
            body[key] = value
        }
        var root = JSONObject([
            ("version", format["version"] ?? 1), ("type", format["type"] ?? .string(type)), ("transcript", .object(body)),
        ])
        for (key, value) in format where root[key] == nil { root[key] = value }
        return .object(root)
    }

    /// The members of an entry object this version reads, by role; any other member of an entry that was read is
    /// kept (a prompt's `contextOptions` and `metadata`, say).
    static let entryKeys: [String: Set<String>] = [
        "instructions": ["id", "role", "contents", "tools"],
        "user": ["id", "role", "contents", "options", "responseFormat"],
        "response": ["id", "role", "contents", "assets", "toolCalls"],
        "tool": ["id", "role", "contents", "toolName", "toolCallID"],
        "reasoning": ["id", "role", "contents", "metadata", "signature"],
    ]

    /// An entry as JSON: an entry read from JSON and not changed since is written back as it was read; one that
    /// changed is written anew, with the members of its source that this version does not know.
    static func encode(_ entry: Transcript.Entry) -> JSONValue {
        if case .unknown(let unknown) = entry { return .object(unknown.json) }
        let written = object(for: entry)
        guard let source = entry.source.object else { return .object(written) }
        if entry.source.entryAsRead == entry { return .object(source) }
        var merged = written
        let known = entryKeys[entry.appleRole] ?? []
        for (key, value) in source where merged[key] == nil && !known.contains(key) { merged[key] = value }
        return .object(merged)
    }

    /// The JSON object of an entry, from its values alone.
    static func object(for entry: Transcript.Entry) -> JSONObject {
        var object = JSONObject()
        object["id"] = .string(entry.id)
        switch entry {
        case .instructions(let instructions):
            object["role"] = "instructions"
            object["contents"] = encode(instructions.segments)
            if !instructions.toolDefinitions.isEmpty {
                object["tools"] = .array(instructions.toolDefinitions.map(encode))
            }
        case .prompt(let prompt):
            object["role"] = "user"
            object["contents"] = encode(prompt.segments)
            object["options"] = encode(prompt.options)
            if let format = prompt.responseFormat {
                object["responseFormat"] = [
                    "type": "jsonSchema",
                    "jsonSchema": ["name": .string(format.name), "schema": format.schema.jsonSchema],
                ]
            }
        case .toolCalls(let calls):
            object["role"] = "response"
            object["toolCalls"] = .array(
                calls.map { call in
                    [
                        "id": .string(call.id), "name": .string(call.toolName),
                        "arguments": .string(call.arguments.jsonValue.jsonString(.spacedSeparators)),
                    ]
                })
        case .toolOutput(let output):
            object["role"] = "tool"
            object["toolName"] = .string(output.toolName)
            object["toolCallID"] = .string(output.id)
            object["contents"] = encode(output.segments)
        case .response(let response):
            object["role"] = "response"
            object["assets"] = .array(response.assetIDs.map(JSONValue.string))
            object["contents"] = encode(response.segments)
        case .reasoning(let reasoning):
            object["role"] = "reasoning"
            object["contents"] = encode(reasoning.segments)
            if !reasoning.metadata.isEmpty {
                object["metadata"] = .object(
                    JSONObject(reasoning.metadata.sorted { $0.key < $1.key }.map { ($0.key, $0.value.jsonValue) }))
            }
            if let signature = reasoning.signature { object["signature"] = .string(signature.base64EncodedString()) }
        case .unknown(let unknown):
            return unknown.json
        }
        return object
    }

    static func encode(_ segments: [Transcript.Segment]) -> JSONValue {
        .array(
            segments.map { segment in
                switch segment {
                case .text(let text):
                    ["type": "text", "id": .string(text.id), "text": .string(text.content)]
                case .structure(let structure):
                    [
                        "type": "structure", "id": .string(structure.id),
                        "structure": ["source": .string(structure.source), "content": structure.content.jsonValue],
                    ]
                case .unknown(let unknown):
                    .object(unknown.json)
                }
            })
    }

    static func encode(_ tool: Transcript.ToolDefinition) -> JSONValue {
        [
            "type": "function",
            "function": [
                "name": .string(tool.name), "description": .string(tool.description),
                "parameters": tool.parameters.jsonSchema,
            ],
        ]
    }

    /// Options as Parley writes them: `{}` for defaults, otherwise only the options that are set, with Apple 27's
    /// names: `samplingMode` (`{"kind": "greedy"}`, `{"kind": "topK", "topK": 40, "randomSeed": 7}`,
    /// `{"kind": "probabilityThreshold", "probabilityThreshold": 0.9}`), `temperature`, `maximumResponseTokens`,
    /// `toolCallingMode` (`allowed`, `required`, `disallowed`). docs/transcript-format.md lists the other forms read.
    static func encode(_ options: GenerationOptions) -> JSONValue {
        var object = JSONObject()
        if let sampling = options.sampling {
            var mode = JSONObject()
            switch sampling.kind {
            case .greedy: mode["kind"] = "greedy"
            case .topK(let k, let seed):
                mode["kind"] = "topK"
                mode["topK"] = .integer(k)
                if let seed { mode["randomSeed"] = .integer(seed) }
            case .nucleus(let threshold, let seed):
                mode["kind"] = "probabilityThreshold"
                mode["probabilityThreshold"] = .double(threshold)
                if let seed { mode["randomSeed"] = .integer(seed) }
            }
            object["samplingMode"] = .object(mode)
        }
        if let temperature = options.temperature { object["temperature"] = .double(temperature) }
        if let maximum = options.maximumResponseTokens { object["maximumResponseTokens"] = .integer(maximum) }
        if let mode = options.toolCallingMode { object["toolCallingMode"] = .string(mode.kind.rawValue) }
        return .object(object)
    }

    // MARK: - Decoding

    /// A failure while decoding, located in the document.
    struct Failure: Error {
        var path: [String]
        var message: String
    }

    static func decode(_ value: JSONValue, codingPath: [any CodingKey]) throws -> Transcript {
        do {
            return try decode(value)
        } catch let failure as Failure {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + failure.path.map { TranscriptCodingKey($0) },
                    debugDescription: failure.message))
        }
    }

    static func decode(_ value: JSONValue) throws -> Transcript {
        guard case .object(let root) = value else {
            throw Failure(path: [], message: "A transcript is a JSON object, found \(value.typeName).")
        }
        if let type = root["type"]?.stringValue, type != TranscriptJSON.type {
            throw Failure(path: ["type"], message: "Expected \"\(TranscriptJSON.type)\", found \"\(type)\".")
        }
        if let version = root["version"] {
            let text = version.stringValue ?? (version.doubleValue.map { "\($0)" } ?? "")
            // A version too large for an Int (or infinite) is still a newer version, not a crash.
            let major = Double(text).flatMap { number -> Int? in
                if number.isNaN { return nil }
                if !number.isFinite || abs(number) >= 1e15 { return number > 0 ? Int.max : Int.min }
                return Int(number.rounded(.towardZero))
            }
            guard let major = major ?? Int(text.split(separator: ".").first ?? "") else {
                throw Failure(
                    path: ["version"], message: "The version must be a number, found \(version.jsonString()).")
            }
            guard major <= 1 else {
                throw Failure(
                    path: ["version"],
                    message: "The transcript has format version \(text), newer than the version 1 Parley reads. "
                        + "Update Parley to read it.")
            }
        }
        guard let entries = root["transcript"]?["entries"]?.arrayValue else {
            throw Failure(path: ["transcript", "entries"], message: "The transcript has no \"entries\" array.")
        }
        var decoded: [Transcript.Entry] = []
        decoded.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            do {
                decoded.append(try decodeEntry(entry))
            } catch let failure as Failure {
                let role = entry["role"]?.stringValue.map { " (role \"\($0)\")" } ?? ""
                throw Failure(
                    path: ["transcript", "entries", "\(index)"] + failure.path,
                    message: "Entry \(index)\(role): \(failure.message)")
            }
        }
        var transcript = Transcript(entries: decoded)
        // What was read around the entries (the version as written, members this version does not know) is written
        // back around them; the entries themselves are not kept twice.
        var format = root
        if var body = root["transcript"]?.objectValue {
            body["entries"] = nil
            format["transcript"] = .object(body)
        }
        transcript.format = JSONSource(format)
        return transcript
    }

    /// The roles this version reads; an entry of another role is kept as `Transcript.Entry.unknown`.
    static let knownRoles: Set<String> = ["instructions", "user", "response", "tool", "reasoning"]

    static func decodeEntry(_ value: JSONValue) throws -> Transcript.Entry {
        guard case .object(let object) = value else {
            throw Failure(path: [], message: "An entry is a JSON object, found \(value.typeName).")
        }
        guard let role = object["role"]?.stringValue else {
            throw Failure(
                path: ["role"], message: "\"role\" is missing (expected instructions, user, response or tool).")
        }
        guard Self.knownRoles.contains(role) else { return .unknown(Transcript.UnknownEntry(role: role, json: object)) }
        let id = try string(object, "id")
        switch role {
        case "instructions":
            let tools = try object["tools"].map { tools -> [Transcript.ToolDefinition] in
                guard let array = tools.arrayValue else {
                    throw Failure(path: ["tools"], message: "\"tools\" must be an array.")
                }
                return try array.enumerated().map { index, tool in try decodeTool(tool, path: ["tools", "\(index)"]) }
            }
            var instructions = Transcript.Instructions(
                id: id, segments: try segments(object), toolDefinitions: tools ?? [])
            instructions.source = JSONSource(object, readAs: .instructions(instructions))
            return .instructions(instructions)
        case "user":
            var prompt = Transcript.Prompt(
                id: id, segments: try segments(object), options: try decodeOptions(object["options"]),
                responseFormat: try decodeResponseFormat(object["responseFormat"]))
            prompt.source = JSONSource(object, readAs: .prompt(prompt))
            return .prompt(prompt)
        case "response":
            if let calls = object["toolCalls"] {
                guard let array = calls.arrayValue else {
                    throw Failure(path: ["toolCalls"], message: "\"toolCalls\" must be an array.")
                }
                var toolCalls = Transcript.ToolCalls(
                    id: id, try array.enumerated().map { try decodeToolCall($1, path: ["toolCalls", "\($0)"]) })
                toolCalls.source = JSONSource(object, readAs: .toolCalls(toolCalls))
                return .toolCalls(toolCalls)
            }
            let assets = try object["assets"].map { assets -> [String] in
                guard let array = assets.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
                    throw Failure(path: ["assets"], message: "\"assets\" must be an array of strings.")
                }
                return array.compactMap(\.stringValue)
            }
            var response = Transcript.Response(id: id, assetIDs: assets ?? [], segments: try segments(object))
            response.source = JSONSource(object, readAs: .response(response))
            return .response(response)
        case "tool":
            let callID = object["toolCallID"]?.stringValue ?? id
            var output = Transcript.ToolOutput(
                id: callID, toolName: try string(object, "toolName"), segments: try segments(object))
            output.source = JSONSource(object, readAs: .toolOutput(output))
            return .toolOutput(output)
        case "reasoning":
            var metadata: [String: GeneratedContent] = [:]
            for (key, member) in object["metadata"]?.objectValue ?? JSONObject() {
                metadata[key] = GeneratedContent(jsonValue: member)
            }
            let signature = try object["signature"].map { value -> Data in
                guard let text = value.stringValue, let data = Data(base64Encoded: text) else {
                    throw Failure(path: ["signature"], message: "\"signature\" must be a base64 string.")
                }
                return data
            }
            var reasoning = Transcript.Reasoning(
                id: id, metadata: metadata, segments: try segments(object), signature: signature)
            reasoning.source = JSONSource(object, readAs: .reasoning(reasoning))
            return .reasoning(reasoning)
        default:
            // A role a newer framework writes: kept as it is, and written back.
            return .unknown(Transcript.UnknownEntry(role: role, json: object))
        }
    }

    private static func segments(_ object: JSONObject) throws -> [Transcript.Segment] {
        guard let contents = object["contents"] else { return [] }
        guard let array = contents.arrayValue else {
            throw Failure(path: ["contents"], message: "\"contents\" must be an array, found \(contents.typeName).")
        }
        return try array.enumerated().map { index, value in
            let path = ["contents", "\(index)"]
            guard case .object(let segment) = value else {
                throw Failure(path: path, message: "A segment is a JSON object, found \(value.typeName).")
            }
            guard let type = segment["type"]?.stringValue else {
                throw Failure(
                    path: path + ["type"], message: "\"type\" is missing (expected text, structure or a newer type).")
            }
            guard type == "text" || type == "structure" else {
                // A kind of segment a newer framework writes (an attachment): kept as it is, and written back.
                return .unknown(Transcript.UnknownSegment(type: type, json: segment))
            }
            let id = try string(segment, "id", path: path)
            switch type {
            case "text":
                return .text(.init(id: id, content: try string(segment, "text", path: path)))
            case "structure":
                guard case .object(let structure)? = segment["structure"] else {
                    throw Failure(
                        path: path + ["structure"], message: "A structure segment needs a \"structure\" object.")
                }
                guard let content = structure["content"] else {
                    throw Failure(path: path + ["structure", "content"], message: "\"content\" is missing.")
                }
                return .structure(
                    .init(
                        id: id, source: try string(structure, "source", path: path + ["structure"]),
                        content: GeneratedContent(jsonValue: content)))
            default:
                return .unknown(Transcript.UnknownSegment(type: type, json: segment))
            }
        }
    }

    private static func decodeTool(_ value: JSONValue, path: [String]) throws -> Transcript.ToolDefinition {
        // Apple nests the definition in "function"; accept a flat definition too.
        guard case .object(let function) = value["function"] ?? value else {
            throw Failure(path: path, message: "A tool definition is a JSON object.")
        }
        let parameters = function["parameters"] ?? ["type": "object", "properties": [:]]
        guard case .object(let schema) = parameters else {
            throw Failure(
                path: path + ["function", "parameters"], message: "\"parameters\" must be a JSON Schema object.")
        }
        return .init(
            name: try string(function, "name", path: path + ["function"]),
            description: function["description"]?.stringValue ?? "", parameters: GenerationSchema(document: schema))
    }

    private static func decodeToolCall(_ value: JSONValue, path: [String]) throws -> Transcript.ToolCall {
        guard case .object(let call) = value else {
            throw Failure(path: path, message: "A tool call is a JSON object.")
        }
        let arguments: GeneratedContent
        switch call["arguments"] {
        case .string(let text)?:
            guard let parsed = try? JSONValue(parsing: text) else {
                throw Failure(
                    path: path + ["arguments"], message: "\"arguments\" is not a complete JSON document: \(text)")
            }
            arguments = GeneratedContent(jsonValue: parsed)
        case .object(let object)?:
            arguments = GeneratedContent(jsonValue: .object(object))  // as Ollama sends them
        case nil:
            arguments = GeneratedContent(properties: [:])
        case let other?:
            throw Failure(
                path: path + ["arguments"], message: "\"arguments\" must be a JSON string, found \(other.typeName).")
        }
        return .init(
            id: try string(call, "id", path: path), toolName: try string(call, "name", path: path), arguments: arguments
        )
    }

    /// Options in any of the forms seen: Apple 27's `samplingMode` object (`kind`, `topK`, `probabilityThreshold`,
    /// `randomSeed`), the same keys flat beside `temperature` (`topK`, `probabilityThreshold`, `randomSeed`,
    /// `greedy`), a `samplingMode` string (`greedy`), and Parley's earlier `sampling` object (`mode`, `k`, `seed`).
    /// Members not read are kept with the entry (`JSONSource`) and written back with it.
    private static func decodeOptions(_ value: JSONValue?) throws -> GenerationOptions {
        guard let value, case .object(let object) = value else { return GenerationOptions() }
        var options = GenerationOptions()
        options.temperature = object["temperature"]?.doubleValue
        options.maximumResponseTokens = object["maximumResponseTokens"]?.intValue
        switch object["toolCallingMode"] {
        case .string(let name)?: options.toolCallingMode = GenerationOptions.ToolCallingMode.Kind(rawValue: name).map {
                GenerationOptions.ToolCallingMode(kind: $0)
            }
        case .object(let mode)?:
            options.toolCallingMode = (mode["kind"]?.stringValue).flatMap(GenerationOptions.ToolCallingMode.Kind.init)
                .map { GenerationOptions.ToolCallingMode(kind: $0) }
        default: break
        }
        let nested = object["samplingMode"] ?? object["sampling"]
        if case .string(let name)? = nested {
            if name == "greedy" { options.sampling = .greedy }
        } else if case .object(let mode)? = nested {
            let key = object["samplingMode"] == nil ? "sampling" : "samplingMode"
            options.sampling = try sampling(in: mode, path: ["options", key])
        } else {
            options.sampling = try sampling(in: object, path: ["options"], flat: true)
        }
        return options
    }

    /// A sampling mode from the members of an object: `kind` or `mode` (`greedy`, `topK`, `probabilityThreshold`),
    /// else inferred from `topK`/`k` or `probabilityThreshold`/`topP`; the seed in `randomSeed` or `seed`. With
    /// `flat`, the members are the options' own (`greedy: true` for greedy), and none of them means the default.
    private static func sampling(
        in object: JSONObject, path: [String], flat: Bool = false
    ) throws -> GenerationOptions.SamplingMode? {
        let seed: UInt64? = {
            for key in ["randomSeed", "seed"] {
                if case .number(let number)? = object[key] { return number.uint64Value }
            }
            return nil
        }()
        let k = (object["topK"] ?? object["k"])?.intValue
        let threshold = (object["probabilityThreshold"] ?? object["topP"])?.doubleValue
        let kind = (object["kind"] ?? object["mode"] ?? object["type"])?.stringValue
        switch kind {
        case "greedy": return .greedy
        case "topK", "top-k": return .random(top: k ?? 1, seed: seed)
        case "probabilityThreshold", "nucleus", "topP": return .random(probabilityThreshold: threshold ?? 1, seed: seed)
        case nil:
            if let k { return .random(top: k, seed: seed) }
            if let threshold { return .random(probabilityThreshold: threshold, seed: seed) }
            if object["greedy"]?.boolValue == true { return .greedy }
            if flat { return nil }
            throw Failure(
                path: path, message: "A sampling mode needs a kind (greedy, topK or probabilityThreshold).")
        case _?:
            // A kind a newer framework adds: the model's default here, and the entry's source keeps it as written.
            return nil
        }
    }

    private static func decodeResponseFormat(_ value: JSONValue?) throws -> Transcript.ResponseFormat? {
        guard let value, !value.isNull else { return nil }
        guard case .object(let format)? = value["jsonSchema"], case .object(let schema)? = format["schema"] else {
            throw Failure(
                path: ["responseFormat"], message: "\"responseFormat\" needs a \"jsonSchema\" with a \"schema\" object."
            )
        }
        let generationSchema = GenerationSchema(document: schema)
        return .init(name: format["name"]?.stringValue ?? generationSchema.name, schema: generationSchema)
    }

    private static func string(_ object: JSONObject, _ key: String, path: [String] = []) throws -> String {
        switch object[key] {
        case .string(let value)?: return value
        case nil: throw Failure(path: path + [key], message: "\"\(key)\" is missing.")
        case let other?:
            throw Failure(path: path + [key], message: "\"\(key)\" must be a string, found \(other.typeName).")
        }
    }
}

/// A coding key for the paths in decoding errors.
struct TranscriptCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) {
        stringValue = string
        intValue = Int(string)
    }
    init(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(String(intValue)) }
}
