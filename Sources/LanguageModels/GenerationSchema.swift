import ParleyJSON

/// The structure a model's output must have, as a JSON Schema.
///
/// A schema describes a `Generable` type to the model: its properties in order, which are required, and the guides
/// that constrain values (choices, ranges, counts, patterns). It is written as JSON Schema with `title`, `x-order`,
/// `required` and `additionalProperties: false`, and nested named types under `$defs` referenced by `$ref`, as
/// Apple's framework writes it; servers that constrain output (llama-server, vLLM, OpenAI) read it directly.
///
/// ```swift
/// GenerationSchema(type: Offer.self, description: "A trade offer", properties: [
///     .init(name: "item", type: String.self),
///     .init(name: "price", type: Int.self, guides: [.range(1...500)]),
///     .init(name: "note", type: String?.self),
/// ])
/// ```
///
/// Its `Codable` form is the JSON Schema document itself, so schemas in transcripts round-trip unchanged.
public struct GenerationSchema: Sendable, Equatable, CustomDebugStringConvertible {
    /// The JSON Schema document; named types it uses are under `$defs`.
    var document: JSONObject

    /// A schema from a JSON Schema document, used as it is.
    init(document: JSONObject) {
        self.document = document
    }

    /// The schema's name: its `title`, the type it references, or `schema`.
    public var name: String {
        if let title = document["title"]?.stringValue { return title }
        if let reference = document["$ref"]?.stringValue, let name = reference.split(separator: "/").last {
            return String(name)
        }
        return "schema"
    }

    /// The schema as pretty-printed JSON Schema.
    public var debugDescription: String { JSONValue.object(document).jsonString(.prettyPrinted) }

    /// The schema as a JSON Schema document.
    public var jsonSchema: JSONValue { .object(document) }

    /// Creates a schema from a JSON Schema document.
    ///
    /// - Parameter jsonSchema: A JSON Schema object, for example one a server or an editor produced.
    /// - Throws: `SchemaError.invalidDocument` when it is not an object.
    public init(jsonSchema: JSONValue) throws {
        guard case .object(let document) = jsonSchema else {
            throw SchemaError.invalidDocument(.init(debugDescription: "A JSON Schema must be an object."))
        }
        self.document = document
    }

    // MARK: - Building schemas for types

    /// The schema of a structure: a named object type with properties in order.
    ///
    /// Optional properties are left out of `required`, so a model may omit them.
    ///
    /// - Parameters:
    ///   - type: The type the schema describes; its name becomes the schema's `title`.
    ///   - description: What the type is, for the model.
    ///   - properties: The properties in the order the model should generate them.
    public init(type: any Generable.Type, description: String? = nil, properties: [Property]) {
        self.init(
            type: type, description: description, representNilExplicitlyInGeneratedContent: false,
            properties: properties)
    }

    /// The schema of a structure, saying whether an optional property without a value is written as `null`.
    ///
    /// With `representNilExplicitlyInGeneratedContent` false this is `init(type:description:properties:)`: optional
    /// properties are not required, and a model leaves out one it has no value for. With it true, as Apple's
    /// framework does from 26.4, every property is required and an optional one's schema also allows `null`
    /// (`{"anyOf": [<its schema>, {"type": "null"}]}`), so the model writes `"remark": null` rather than omitting
    /// the key, and `CodableGenerable` content writes the `null` too. Some models fill in a property more reliably
    /// when they are made to decide about it.
    ///
    /// ```swift
    /// GenerationSchema(type: Offer.self, representNilExplicitlyInGeneratedContent: true, properties: [
    ///     .init(name: "item", type: String.self),
    ///     .init(name: "remark", type: String?.self),
    /// ])
    /// // "required": ["item", "remark"], "remark": {"anyOf": [{"type": "string"}, {"type": "null"}]}
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the schema describes; its name becomes the schema's `title`.
    ///   - description: What the type is, for the model.
    ///   - representNilExplicitlyInGeneratedContent: Whether an optional property without a value is written as
    ///     `null` instead of being left out.
    ///   - properties: The properties in the order the model should generate them.
    public init(
        type: any Generable.Type, description: String? = nil, representNilExplicitlyInGeneratedContent: Bool,
        properties: [Property]
    ) {
        var schema = JSONObject()
        schema["type"] = "object"
        schema["title"] = .string(GenerationSchema.typeName(type))
        if let description { schema["description"] = .string(description) }
        var propertySchemas = JSONObject()
        var definitions = JSONObject()
        for property in properties {
            var propertySchema = GenerationSchema.reference(to: property.schema, collecting: &definitions)
            if property.isOptional && representNilExplicitlyInGeneratedContent {
                propertySchema = JSONObject([
                    ("anyOf", .array([.object(propertySchema), .object(GenerationSchema.nullSchema)]))
                ])
            }
            if let description = property.description { propertySchema["description"] = .string(description) }
            propertySchemas[property.name] = .object(propertySchema)
        }
        schema["properties"] = .object(propertySchemas)
        let required = representNilExplicitlyInGeneratedContent ? properties : properties.filter { !$0.isOptional }
        schema["required"] = .array(required.map { .string($0.name) })
        schema["x-order"] = .array(properties.map { .string($0.name) })
        schema["additionalProperties"] = false
        if !definitions.isEmpty { schema["$defs"] = .object(definitions) }
        self.document = schema
    }

    /// The schema of a structure under a name of its own rather than its type's, as `@Generable(name:)` (Apple 27)
    /// writes it: the name is the schema's `title`, the key it has under `$defs` in the schemas that use it, and the
    /// name a request gives its response format. Two types of the same name (`Arguments` of two tools) keep apart
    /// so, and a schema keeps its name when its type is renamed.
    ///
    /// - Parameters:
    ///   - type: The type the schema describes.
    ///   - name: The schema's name.
    ///   - description: What the type is, for the model.
    ///   - representNilExplicitlyInGeneratedContent: Whether an optional property without a value is written as
    ///     `null` instead of being left out (see `init(type:description:representNilExplicitlyInGeneratedContent:properties:)`).
    ///   - properties: The properties in the order the model should generate them.
    public init(
        type: any Generable.Type, name: String, description: String? = nil,
        representNilExplicitlyInGeneratedContent: Bool = false, properties: [Property]
    ) {
        self.init(
            type: type, description: description,
            representNilExplicitlyInGeneratedContent: representNilExplicitlyInGeneratedContent, properties: properties)
        document["title"] = .string(name)
    }

    /// The schema of an enumeration under a name of its own rather than its type's, as `@Generable(name:)` writes
    /// it.
    ///
    /// - Parameters:
    ///   - type: The type the schema describes.
    ///   - name: The schema's name.
    ///   - description: What the type is, for the model.
    ///   - choices: The values the model may choose from.
    public init(type: any Generable.Type, name: String, description: String? = nil, anyOf choices: [String]) {
        self.init(type: type, description: description, anyOf: choices)
        document["title"] = .string(name)
    }

    /// `{"type": "null"}`, the choice `representNilExplicitlyInGeneratedContent` adds to optional properties.
    static let nullSchema = JSONObject([("type", "null")])

    /// Whether a property's schema is one `representNilExplicitlyInGeneratedContent` made: `anyOf` with `null`.
    static func isExplicitlyNullable(_ schema: JSONValue) -> Bool {
        schema["anyOf"]?.arrayValue?.contains(.object(nullSchema)) ?? false
    }

    /// The schema of an enumeration: a named string type with a fixed set of values.
    ///
    /// - Parameters:
    ///   - type: The type the schema describes.
    ///   - description: What the type is, for the model.
    ///   - choices: The values the model may choose from.
    public init(type: any Generable.Type, description: String? = nil, anyOf choices: [String]) {
        var schema = JSONObject()
        schema["type"] = "string"
        schema["title"] = .string(GenerationSchema.typeName(type))
        if let description { schema["description"] = .string(description) }
        schema["enum"] = .array(choices.map(JSONValue.string))
        self.document = schema
    }

    /// The schema of a union: a named type whose value is one of several types.
    ///
    /// - Parameters:
    ///   - type: The type the schema describes.
    ///   - description: What the type is, for the model.
    ///   - types: The types the value may be.
    public init(type: any Generable.Type, description: String? = nil, anyOf types: [any Generable.Type]) {
        var schema = JSONObject()
        schema["title"] = .string(GenerationSchema.typeName(type))
        if let description { schema["description"] = .string(description) }
        var definitions = JSONObject()
        schema["anyOf"] = .array(
            types.map { .object(GenerationSchema.reference(to: $0.generationSchema, collecting: &definitions)) })
        if !definitions.isEmpty { schema["$defs"] = .object(definitions) }
        self.document = schema
    }

    /// A primitive schema (`string`, `integer`, ...), which nests inline rather than under `$defs`.
    static func primitive(_ type: String) -> GenerationSchema {
        GenerationSchema(document: JSONObject([("type", .string(type))]))
    }

    /// The schema of an array of `element`s; a named element type goes under `$defs`.
    static func array(of element: GenerationSchema) -> GenerationSchema {
        var definitions = JSONObject()
        var document = JSONObject()
        document["type"] = "array"
        document["items"] = .object(reference(to: element, collecting: &definitions))
        if !definitions.isEmpty { document["$defs"] = .object(definitions) }
        return GenerationSchema(document: document)
    }

    /// The type's name without its module, as a schema title.
    static func typeName(_ type: Any.Type) -> String {
        String(describing: type)
    }

    /// How a schema appears inside another: named types move to `definitions` and are referenced with `$ref`;
    /// primitive schemas are copied inline. Definitions the nested schema has are collected too.
    static func reference(to nested: GenerationSchema, collecting definitions: inout JSONObject) -> JSONObject {
        var schema = nested.document
        if let nestedDefinitions = schema["$defs"]?.objectValue {
            for (name, definition) in nestedDefinitions where !definitions.contains(key: name) {
                definitions[name] = definition
            }
            schema["$defs"] = nil
        }
        guard let title = schema["title"]?.stringValue else { return schema }
        if !definitions.contains(key: title) { definitions[title] = .object(schema) }
        return JSONObject([("$ref", .string("#/$defs/\(title)"))])
    }

    // MARK: - Property

    /// A property of a structure's schema.
    public struct Property: Sendable {
        /// The property's name.
        public let name: String
        /// What the property is, for the model.
        public let description: String?
        /// Whether the property may be left out.
        public let isOptional: Bool
        /// The property's schema, with its guides applied.
        let schema: GenerationSchema

        /// A required property.
        ///
        /// - Parameters:
        ///   - name: The property's name.
        ///   - description: What it is, for the model.
        ///   - type: Its type.
        ///   - guides: Constraints on its values, such as `.range(1...10)` or `.anyOf([...])`.
        public init<Value: Generable>(
            name: String, description: String? = nil, type: Value.Type, guides: [GenerationGuide<Value>] = []
        ) {
            self.name = name
            self.description = description
            self.isOptional = false
            self.schema = GenerationSchema.applying(guides, to: Value.generationSchema)
        }

        /// An optional property: the model may leave it out or generate `null`.
        ///
        /// - Parameters:
        ///   - name: The property's name.
        ///   - description: What it is, for the model.
        ///   - type: Its type, as an optional.
        ///   - guides: Constraints on its values.
        public init<Value: Generable>(
            name: String, description: String? = nil, type: Value?.Type, guides: [GenerationGuide<Value>] = []
        ) {
            self.name = name
            self.description = description
            self.isOptional = true
            self.schema = GenerationSchema.applying(guides, to: Value.generationSchema)
        }
    }

    static func applying<Value>(_ guides: [GenerationGuide<Value>], to schema: GenerationSchema) -> GenerationSchema {
        var document = schema.document
        for guide in guides { guide.apply(to: &document) }
        return GenerationSchema(document: document)
    }

    // MARK: - Errors

    /// An error in building a schema.
    public enum SchemaError: Error, Sendable, CustomStringConvertible {
        /// Two different types have the same name.
        case duplicateType(schema: String?, type: String, Context)
        /// A structure names the same property twice.
        case duplicateProperty(schema: String, property: String, Context)
        /// A union or enumeration has no choices.
        case emptyTypeChoices(schema: String, Context)
        /// A schema refers to types that are not defined.
        case undefinedReferences(schema: String?, references: [String], Context)
        /// A JSON Schema document that is not an object.
        case invalidDocument(Context)

        /// What went wrong, for developers.
        public struct Context: Sendable {
            /// A description of the problem.
            public let debugDescription: String
            /// Creates a context.
            ///
            /// - Parameter debugDescription: The problem.
            public init(debugDescription: String) { self.debugDescription = debugDescription }
        }

        /// What went wrong and how to fix it.
        public var description: String {
            switch self {
            case .duplicateType(_, let type, let context),
                .duplicateProperty(_, let type, let context):
                "\(context.debugDescription) (\(type))"
            case .emptyTypeChoices(_, let context), .invalidDocument(let context): context.debugDescription
            case .undefinedReferences(_, let references, let context):
                "\(context.debugDescription) (\(references.joined(separator: ", ")))"
            }
        }
    }
}

// MARK: - Codable

extension GenerationSchema: Codable {
    /// Decodes a JSON Schema document.
    ///
    /// - Throws: `DecodingError` when it is not a JSON object.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard case .object(let document) = value else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "A JSON Schema must be an object."))
        }
        self.document = document
    }

    /// Encodes the JSON Schema document.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(document).encode(to: encoder)
    }
}
