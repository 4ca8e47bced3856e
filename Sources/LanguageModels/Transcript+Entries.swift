import Foundation

extension Transcript {
    /// The instructions that start a conversation, with the tools the model may call.
    public struct Instructions: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The entry's identifier.
        public var id: String
        /// The JSON object the entry was read from, written back when the entry has not changed (`JSONSource`).
        var source = JSONSource.none
        /// The instructions' content.
        public var segments: [Segment]
        /// The tools the model may call, described to it.
        public var toolDefinitions: [ToolDefinition]

        /// Creates an instructions entry.
        ///
        /// - Parameters:
        ///   - id: The identifier; a new UUID by default.
        ///   - segments: The instructions' content.
        ///   - toolDefinitions: The tools the model may call.
        public init(id: String = RandomID.uuidString(), segments: [Segment], toolDefinitions: [ToolDefinition]) {
            self.id = id
            self.segments = segments
            self.toolDefinitions = toolDefinitions
        }

        /// `Instructions: …` and the tools' names.
        public var description: String {
            let tools =
                toolDefinitions.isEmpty ? "" : " [tools: \(toolDefinitions.map(\.name).joined(separator: ", "))]"
            return "Instructions: \(describe(segments))\(tools)"
        }
    }

    /// What the user asked, with how they asked it.
    public struct Prompt: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The entry's identifier.
        public var id: String
        /// The JSON object the entry was read from, written back when the entry has not changed (`JSONSource`).
        var source = JSONSource.none
        /// What was asked.
        public var segments: [Segment]
        /// The generation options of the request.
        public var options: GenerationOptions
        /// The structure the response had to follow, for guided generation.
        public var responseFormat: ResponseFormat?

        /// Creates a prompt entry.
        ///
        /// - Parameters:
        ///   - id: The identifier; a new UUID by default.
        ///   - segments: What was asked.
        ///   - options: The request's generation options.
        ///   - responseFormat: The response's required structure, if any.
        public init(
            id: String = RandomID.uuidString(), segments: [Segment], options: GenerationOptions = GenerationOptions(),
            responseFormat: ResponseFormat? = nil
        ) {
            self.id = id
            self.segments = segments
            self.options = options
            self.responseFormat = responseFormat
        }

        /// `Prompt: …`.
        public var description: String {
            let format = responseFormat.map { " [format: \($0.name)]" } ?? ""
            return "Prompt: \(describe(segments))\(format)"
        }
    }

    /// What the model answered.
    public struct Response: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The entry's identifier.
        public var id: String
        /// The JSON object the entry was read from, written back when the entry has not changed (`JSONSource`).
        var source = JSONSource.none
        /// Identifiers of the model assets that produced the response (Parley records the model's id and version).
        public var assetIDs: [String]
        /// The answer.
        public var segments: [Segment]

        /// Creates a response entry.
        ///
        /// - Parameters:
        ///   - id: The identifier; a new UUID by default.
        ///   - assetIDs: The producing model's identifiers.
        ///   - segments: The answer.
        public init(id: String = RandomID.uuidString(), assetIDs: [String] = [], segments: [Segment]) {
            self.id = id
            self.assetIDs = assetIDs
            self.segments = segments
        }

        /// `Response: …`.
        public var description: String { "Response: \(describe(segments))" }
    }

    /// The tool calls the model asked for in one step.
    public struct ToolCalls: Sendable, Identifiable, Equatable, RandomAccessCollection, CustomStringConvertible {
        /// The entry's identifier.
        public var id: String
        /// The JSON object the entry was read from, written back when the entry has not changed (`JSONSource`).
        var source = JSONSource.none
        private var calls: [ToolCall]

        /// Creates a tool-calls entry.
        ///
        /// - Parameters:
        ///   - id: The identifier; a new UUID by default.
        ///   - calls: The calls, in the order the model made them.
        public init<S: Sequence>(id: String = RandomID.uuidString(), _ calls: S) where S.Element == ToolCall {
            self.id = id
            self.calls = Array(calls)
        }

        /// The position of the first call.
        public var startIndex: Int { calls.startIndex }
        /// The position after the last call.
        public var endIndex: Int { calls.endIndex }
        /// The call at `position`.
        public subscript(position: Int) -> ToolCall { calls[position] }

        /// `Tool calls: lookUpStock({"item":"lantern"})`.
        public var description: String { "Tool calls: " + calls.map(\.description).joined(separator: ", ") }
    }

    /// One call of a tool, with the arguments the model generated.
    public struct ToolCall: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The call's identifier; the tool's output entry has the same id.
        public var id: String
        /// The tool's name.
        public var toolName: String
        /// The arguments.
        public var arguments: GeneratedContent

        /// Creates a tool call.
        ///
        /// - Parameters:
        ///   - id: The call's identifier.
        ///   - toolName: The tool's name.
        ///   - arguments: The arguments.
        public init(id: String, toolName: String, arguments: GeneratedContent) {
            self.id = id
            self.toolName = toolName
            self.arguments = arguments
        }

        /// `toolName({"argument":1})`.
        public var description: String { "\(toolName)(\(arguments.jsonString))" }
    }

    /// What a tool returned; its id is the id of the call it answers.
    public struct ToolOutput: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The identifier, equal to the `ToolCall.id` this output answers.
        public var id: String
        /// The JSON object the entry was read from, written back when the entry has not changed (`JSONSource`).
        var source = JSONSource.none
        /// The tool's name.
        public var toolName: String
        /// The output.
        public var segments: [Segment]

        /// Creates a tool output entry.
        ///
        /// - Parameters:
        ///   - id: The id of the call this answers.
        ///   - toolName: The tool's name.
        ///   - segments: The output.
        public init(id: String, toolName: String, segments: [Segment]) {
            self.id = id
            self.toolName = toolName
            self.segments = segments
        }

        /// `Tool output (lookUpStock): …`.
        public var description: String { "Tool output (\(toolName)): \(describe(segments))" }
    }

    /// The model's reasoning before its answer.
    public struct Reasoning: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The entry's identifier.
        public var id: String
        /// The JSON object the entry was read from, written back when the entry has not changed (`JSONSource`).
        var source = JSONSource.none
        /// Extra information the model gave about its reasoning.
        public var metadata: [String: GeneratedContent]
        /// The reasoning.
        public var segments: [Segment]
        /// A signature some providers attach to verify the reasoning was not altered.
        public var signature: Data?

        /// Creates a reasoning entry.
        ///
        /// - Parameters:
        ///   - id: The identifier; a new UUID by default.
        ///   - metadata: Extra information.
        ///   - segments: The reasoning.
        ///   - signature: The provider's signature, if any.
        public init(
            id: String = RandomID.uuidString(), metadata: [String: GeneratedContent] = [:], segments: [Segment],
            signature: Data? = nil
        ) {
            self.id = id
            self.metadata = metadata
            self.segments = segments
            self.signature = signature
        }

        /// `Reasoning: …`.
        public var description: String { "Reasoning: \(describe(segments))" }
    }

    /// A tool as the model sees it: its name, what it does, and its parameters' schema.
    public struct ToolDefinition: Sendable, Equatable, CustomStringConvertible {
        /// The tool's name.
        public var name: String
        /// What the tool does, for the model.
        public var description: String
        /// The JSON Schema of the tool's arguments.
        public var parameters: GenerationSchema

        /// Creates a tool definition.
        ///
        /// - Parameters:
        ///   - name: The tool's name.
        ///   - description: What it does.
        ///   - parameters: Its arguments' schema.
        public init(name: String, description: String, parameters: GenerationSchema) {
            self.name = name
            self.description = description
            self.parameters = parameters
        }

        /// The definition of a tool.
        ///
        /// - Parameter tool: The tool.
        public init(tool: some Tool) {
            self.init(name: tool.name, description: tool.description, parameters: tool.parameters)
        }
    }

    /// The structure a guided response had to follow: a named schema.
    public struct ResponseFormat: Sendable, Equatable, CustomStringConvertible {
        /// The name of the generated type or schema.
        public let name: String
        /// The schema.
        public let schema: GenerationSchema

        /// The format of a `Generable` type.
        ///
        /// - Parameter type: The type.
        public init<Content: Generable>(type: Content.Type) {
            self.init(schema: Content.generationSchema)
        }

        /// The format of a schema.
        ///
        /// - Parameter schema: The schema.
        public init(schema: GenerationSchema) {
            self.init(name: schema.name, schema: schema)
        }

        init(name: String, schema: GenerationSchema) {
            self.name = name
            self.schema = schema
        }

        /// The format's name.
        public var description: String { name }
    }
}
