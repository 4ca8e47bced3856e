import ParleyJSON

/// A schema built at run time, for structures not known when the code was written (for example, content a modder
/// defines). Combine them into a `GenerationSchema` with `GenerationSchema(root:dependencies:)`.
///
/// ```swift
/// let offer = DynamicGenerationSchema(name: "Offer", properties: [
///     .init(name: "item", schema: DynamicGenerationSchema(name: "Item", anyOf: ["lantern", "rope"])),
///     .init(name: "price", schema: DynamicGenerationSchema(type: Int.self, guides: [.minimum(1)])),
/// ])
/// let schema = try GenerationSchema(root: offer, dependencies: [])
/// ```
public struct DynamicGenerationSchema: Sendable {
    indirect enum Node: Sendable {
        case object(name: String, description: String?, properties: [Property])
        case choices(name: String, description: String?, choices: [DynamicGenerationSchema])
        case strings(name: String, description: String?, values: [String])
        case array(element: DynamicGenerationSchema, minimum: Int?, maximum: Int?)
        case type(GenerationSchema)
        case reference(String)
        case null
    }

    let node: Node

    /// The schema of `null`.
    public static var null: DynamicGenerationSchema { DynamicGenerationSchema(node: .null) }

    init(node: Node) { self.node = node }

    /// A named structure with properties in order.
    ///
    /// - Parameters:
    ///   - name: The structure's name; other schemas refer to it by this name.
    ///   - description: What it is, for the model.
    ///   - properties: Its properties in order.
    public init(name: String, description: String? = nil, properties: [Property]) {
        node = .object(name: name, description: description, properties: properties)
    }

    /// A named union of schemas: the value follows one of them.
    ///
    /// - Parameters:
    ///   - name: The union's name.
    ///   - description: What it is, for the model.
    ///   - choices: The schemas the value may follow.
    public init(name: String, description: String? = nil, anyOf choices: [DynamicGenerationSchema]) {
        node = .choices(name: name, description: description, choices: choices)
    }

    /// A named enumeration of strings.
    ///
    /// - Parameters:
    ///   - name: The enumeration's name.
    ///   - description: What it is, for the model.
    ///   - choices: The allowed strings.
    public init(name: String, description: String? = nil, anyOf choices: [String]) {
        node = .strings(name: name, description: description, values: choices)
    }

    /// An array whose elements follow a schema.
    ///
    /// - Parameters:
    ///   - itemSchema: The elements' schema.
    ///   - minimumElements: The fewest elements.
    ///   - maximumElements: The most elements.
    public init(arrayOf itemSchema: DynamicGenerationSchema, minimumElements: Int? = nil, maximumElements: Int? = nil) {
        node = .array(element: itemSchema, minimum: minimumElements, maximum: maximumElements)
    }

    /// The schema of a `Generable` type, with guides.
    ///
    /// - Parameters:
    ///   - type: The type.
    ///   - guides: Constraints on its values.
    public init<Value: Generable>(type: Value.Type, guides: [GenerationGuide<Value>] = []) {
        node = .type(GenerationSchema.applying(guides, to: Value.generationSchema))
    }

    /// A reference to a named schema given among the dependencies.
    ///
    /// - Parameter name: The referenced schema's name.
    public init(referenceTo name: String) {
        node = .reference(name)
    }

    /// A property of a dynamic structure.
    public struct Property: Sendable {
        /// The property's name.
        public let name: String
        /// What it is, for the model.
        public let description: String?
        /// Its schema.
        public let schema: DynamicGenerationSchema
        /// Whether it may be left out.
        public let isOptional: Bool

        /// Creates a property.
        ///
        /// - Parameters:
        ///   - name: The property's name.
        ///   - description: What it is, for the model.
        ///   - schema: Its schema.
        ///   - isOptional: Whether it may be left out.
        public init(name: String, description: String? = nil, schema: DynamicGenerationSchema, isOptional: Bool = false)
        {
            self.name = name
            self.description = description
            self.schema = schema
            self.isOptional = isOptional
        }
    }

    var name: String? {
        switch node {
        case .object(let name, _, _), .choices(let name, _, _), .strings(let name, _, _): name
        default: nil
        }
    }
}

extension GenerationSchema {
    /// Builds a schema from dynamic schemas: the root, and named schemas it refers to.
    ///
    /// Named structures, unions and enumerations are placed under `$defs` and referenced with `$ref`.
    ///
    /// - Parameters:
    ///   - root: The schema of the whole value.
    ///   - dependencies: Named schemas the root refers to with `DynamicGenerationSchema(referenceTo:)`.
    /// - Throws: `SchemaError.duplicateType` when two different schemas share a name, `duplicateProperty` when a
    ///   structure names a property twice, `emptyTypeChoices` for a union or enumeration without choices, and
    ///   `undefinedReferences` for references to names that are not defined.
    public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {
        var builder = DynamicSchemaBuilder()
        for dependency in dependencies {
            guard let name = dependency.name else { continue }
            _ = try builder.named(name, dependency)
        }
        var document = try builder.inline(root)
        let rootName = root.name
        let undefined = builder.references.subtracting(builder.definitions.keys).subtracting(
            rootName.map { [$0] } ?? [])
        guard undefined.isEmpty else {
            throw SchemaError.undefinedReferences(
                schema: rootName, references: undefined.sorted(),
                .init(
                    debugDescription: "The schema refers to types that are neither the root nor among the dependencies")
            )
        }
        var definitions = JSONObject()
        for name in builder.order where name != rootName {
            definitions[name] = builder.definitions[name]
        }
        if let rootName, builder.references.contains(rootName) {
            definitions[rootName] = .object(document)  // the root refers to itself
        }
        if !definitions.isEmpty { document["$defs"] = .object(definitions) }
        self.init(document: document)
    }
}

/// Compiles dynamic schemas to JSON Schema, collecting named definitions.
private struct DynamicSchemaBuilder {
    var definitions: [String: JSONValue] = [:]
    var order: [String] = []
    var references: Set<String> = []

    /// Defines a named schema and returns a reference to it.
    mutating func named(_ name: String, _ schema: DynamicGenerationSchema) throws -> JSONObject {
        let compiled = JSONValue.object(try inline(schema))
        if let existing = definitions[name] {
            guard existing == compiled else {
                throw GenerationSchema.SchemaError.duplicateType(
                    schema: nil, type: name, .init(debugDescription: "Two different schemas are named \(name)"))
            }
        } else {
            definitions[name] = compiled
            order.append(name)
        }
        return JSONObject([("$ref", .string("#/$defs/\(name)"))])
    }

    /// A schema written in place (named schemas nested inside it become references).
    mutating func inline(_ schema: DynamicGenerationSchema) throws -> JSONObject {
        var object = JSONObject()
        switch schema.node {
        case .object(let name, let description, let properties):
            object["type"] = "object"
            object["title"] = .string(name)
            if let description { object["description"] = .string(description) }
            var members = JSONObject()
            for property in properties {
                guard !members.contains(key: property.name) else {
                    throw GenerationSchema.SchemaError.duplicateProperty(
                        schema: name, property: property.name,
                        .init(debugDescription: "The structure \(name) has the property \(property.name) twice"))
                }
                var member = try nested(property.schema)
                if let description = property.description { member["description"] = .string(description) }
                members[property.name] = .object(member)
            }
            object["properties"] = .object(members)
            object["required"] = .array(properties.filter { !$0.isOptional }.map { .string($0.name) })
            object["x-order"] = .array(properties.map { .string($0.name) })
            object["additionalProperties"] = false
        case .choices(let name, let description, let choices):
            guard !choices.isEmpty else {
                throw GenerationSchema.SchemaError.emptyTypeChoices(
                    schema: name, .init(debugDescription: "The union \(name) has no choices"))
            }
            object["title"] = .string(name)
            if let description { object["description"] = .string(description) }
            object["anyOf"] = .array(try choices.map { .object(try nested($0)) })
        case .strings(let name, let description, let values):
            guard !values.isEmpty else {
                throw GenerationSchema.SchemaError.emptyTypeChoices(
                    schema: name, .init(debugDescription: "The enumeration \(name) has no values"))
            }
            object["type"] = "string"
            object["title"] = .string(name)
            if let description { object["description"] = .string(description) }
            object["enum"] = .array(values.map(JSONValue.string))
        case .array(let element, let minimum, let maximum):
            object["type"] = "array"
            object["items"] = .object(try nested(element))
            if let minimum { object["minItems"] = .integer(minimum) }
            if let maximum { object["maxItems"] = .integer(maximum) }
        case .type(let schema):
            object = schema.document
            if let definitions = object["$defs"]?.objectValue {
                for (name, definition) in definitions where self.definitions[name] == nil {
                    self.definitions[name] = definition
                    order.append(name)
                }
                object["$defs"] = nil
            }
        case .reference(let name):
            references.insert(name)
            object["$ref"] = .string("#/$defs/\(name)")
        case .null:
            object["type"] = "null"
        }
        return object
    }

    /// A schema inside another: named ones become references.
    private mutating func nested(_ schema: DynamicGenerationSchema) throws -> JSONObject {
        if let name = schema.name { return try named(name, schema) }
        return try inline(schema)
    }
}
