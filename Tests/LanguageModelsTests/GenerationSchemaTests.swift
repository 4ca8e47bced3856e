import Foundation
import LanguageModels
import ParleyJSON
import Testing

/// A nested type for schema tests: a shop with an optional keeper, an enum and arrays of a nested type.
struct Shop: CodableGenerable, Equatable {
    enum Mood: String, Codable, Generable {
        case calm, busy
        static var generationSchema: GenerationSchema { GenerationSchema(type: Mood.self, anyOf: ["calm", "busy"]) }
        init(_ content: GeneratedContent) throws {
            guard let mood = Mood(rawValue: try String(content)) else {
                throw GeneratedContent.ParsingError(rawContent: content.jsonString, debugDescription: "not a mood")
            }
            self = mood
        }
        var generatedContent: GeneratedContent { rawValue.generatedContent }
    }
    struct Ware: CodableGenerable, Equatable {
        var name: String
        var price: Int
        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Ware.self, description: "An item for sale",
                properties: [
                    .init(name: "name", type: String.self, guides: [.pattern("^[a-z ]+$")]),
                    .init(name: "price", description: "In gold", type: Int.self, guides: [.range(1...500)]),
                ])
        }
    }
    var keeper: String?
    var mood: Mood
    var wares: [Ware]
    var tags: [String]
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Shop.self, description: "A shop",
            properties: [
                .init(name: "keeper", type: String?.self),
                .init(name: "mood", type: Mood.self),
                .init(name: "wares", type: [Ware].self, guides: [.count(1...3)]),
                .init(
                    name: "tags", type: [String].self, guides: [.element(.anyOf(["food", "tools"])), .maximumCount(2)]),
            ])
    }
}

@Suite struct GenerationSchemaTests {
    @Test func nestedOptionalEnumAndArrayTypesEmitJSONSchema() throws {
        let expected = try JSONValue(
            parsing: #"""
                {
                  "type": "object", "title": "Shop", "description": "A shop",
                  "properties": {
                    "keeper": {"type": "string"},
                    "mood": {"$ref": "#/$defs/Mood"},
                    "wares": {"type": "array", "items": {"$ref": "#/$defs/Ware"}, "minItems": 1, "maxItems": 3},
                    "tags": {"type": "array", "items": {"type": "string", "enum": ["food", "tools"]}, "maxItems": 2}
                  },
                  "required": ["mood", "wares", "tags"],
                  "x-order": ["keeper", "mood", "wares", "tags"],
                  "additionalProperties": false,
                  "$defs": {
                    "Mood": {"type": "string", "title": "Mood", "enum": ["calm", "busy"]},
                    "Ware": {
                      "type": "object", "title": "Ware", "description": "An item for sale",
                      "properties": {
                        "name": {"type": "string", "pattern": "^[a-z ]+$"},
                        "price": {"type": "integer", "minimum": 1, "maximum": 500, "description": "In gold"}
                      },
                      "required": ["name", "price"], "x-order": ["name", "price"], "additionalProperties": false
                    }
                  }
                }
                """#)
        #expect(Shop.generationSchema.jsonSchema == expected)
        #expect(Shop.generationSchema.name == "Shop")
    }

    @Test func schemasRoundTripThroughCodable() throws {
        let data = try JSONEncoder().encode(Shop.generationSchema)
        #expect(try JSONDecoder().decode(GenerationSchema.self, from: data) == Shop.generationSchema)
    }

    @Test func codableGenerableConvertsBothWaysInSchemaOrder() throws {
        let shop = Shop(keeper: nil, mood: .busy, wares: [.init(name: "rope", price: 3)], tags: ["tools"])
        let content = shop.generatedContent
        #expect(content.orderedKeys == ["mood", "wares", "tags"])
        #expect(content.jsonString == #"{"mood":"busy","wares":[{"name":"rope","price":3}],"tags":["tools"]}"#)
        #expect(try Shop(content) == shop)
        #expect(Shop.generationSchema.validate(content).isEmpty)
    }

    @Test(arguments: [
        (#"{"mood":"calm","wares":[],"tags":[]}"#, ["$.wares: has 0 elements, fewer than 1"]),
        (
            #"{"mood":"angry","wares":[{"name":"rope","price":3}],"tags":[]}"#,
            [#"$.mood: is "angry", expected one of "calm", "busy""#]
        ),
        (
            #"{"mood":"calm","wares":[{"name":"Rope!","price":0}],"tags":["gems"]}"#,
            [
                #"$.wares[0].name: "Rope!" does not match the pattern ^[a-z ]+$"#,
                "$.wares[0].price: is 0, below the minimum 1",
                #"$.tags[0]: is "gems", expected one of "food", "tools""#,
            ]
        ),
        (
            #"{"wares":[{"name":"rope","price":2.5}],"tags":[],"extra":1}"#,
            [
                #"$: lacks the required property "mood""#, "$.wares[0].price: is the number 2.5, expected integer",
                "$.extra: is not a property the schema allows",
            ]
        ),
        (#"[1]"#, ["$: is an array, expected object"]),
    ])
    func validationReportsEveryViolationWithItsPath(_ json: String, _ expected: [String]) throws {
        let problems = Shop.generationSchema.validate(try GeneratedContent(json: json))
        #expect(problems.map(\.description) == expected)
    }

    @Test func dynamicSchemasCompileToTheSameShape() throws {
        let ware = DynamicGenerationSchema(
            name: "Ware",
            properties: [
                .init(name: "name", schema: DynamicGenerationSchema(type: String.self)),
                .init(name: "price", schema: DynamicGenerationSchema(type: Int.self, guides: [.range(1...500)])),
            ])
        let root = DynamicGenerationSchema(
            name: "Stall",
            properties: [
                .init(
                    name: "wares",
                    schema: DynamicGenerationSchema(
                        arrayOf: DynamicGenerationSchema(referenceTo: "Ware"), maximumElements: 3)),
                .init(name: "mood", schema: DynamicGenerationSchema(name: "Mood", anyOf: ["calm", "busy"])),
                .init(name: "note", schema: DynamicGenerationSchema(type: String.self), isOptional: true),
            ])
        let schema = try GenerationSchema(root: root, dependencies: [ware])
        let document = schema.jsonSchema
        #expect(document["title"] == "Stall")
        #expect(document["required"] == ["wares", "mood"])
        #expect(document["properties"]?["wares"]?["items"] == ["$ref": "#/$defs/Ware"])
        #expect(document["properties"]?["mood"] == ["$ref": "#/$defs/Mood"])
        #expect(
            document["$defs"]?["Ware"]?["properties"]?["price"] == ["type": "integer", "minimum": 1, "maximum": 500])
        let valid = try GeneratedContent(json: #"{"wares":[{"name":"rope","price":3}],"mood":"calm"}"#)
        #expect(schema.validate(valid).isEmpty)
        let invalid = try GeneratedContent(json: #"{"wares":[{"name":"rope","price":900}],"mood":"calm"}"#)
        #expect(schema.validate(invalid).map(\.description) == ["$.wares[0].price: is 900, above the maximum 500"])
    }

    @Test func dynamicSchemaErrors() {
        #expect(throws: GenerationSchema.SchemaError.self) {
            try GenerationSchema(
                root: DynamicGenerationSchema(
                    name: "A",
                    properties: [
                        .init(name: "b", schema: DynamicGenerationSchema(referenceTo: "Missing"))
                    ]), dependencies: [])
        }
        #expect(throws: GenerationSchema.SchemaError.self) {
            try GenerationSchema(
                root: DynamicGenerationSchema(
                    name: "A",
                    properties: [
                        .init(name: "x", schema: .null), .init(name: "x", schema: .null),
                    ]), dependencies: [])
        }
        #expect(throws: GenerationSchema.SchemaError.self) {
            try GenerationSchema(root: DynamicGenerationSchema(name: "E", anyOf: [String]()), dependencies: [])
        }
        #expect(throws: GenerationSchema.SchemaError.self) {
            try GenerationSchema(
                root: DynamicGenerationSchema(name: "Root", properties: []),
                dependencies: [
                    DynamicGenerationSchema(name: "Twin", anyOf: ["a"]),
                    DynamicGenerationSchema(name: "Twin", anyOf: ["b"]),
                ])
        }
    }

    @Test func standardTypesHavePrimitiveSchemas() {
        #expect(String.generationSchema.jsonSchema == ["type": "string"])
        #expect(Int.generationSchema.jsonSchema == ["type": "integer"])
        #expect(Double.generationSchema.jsonSchema == ["type": "number"])
        #expect(Bool.generationSchema.jsonSchema == ["type": "boolean"])
        #expect([Int].generationSchema.jsonSchema == ["type": "array", "items": ["type": "integer"]])
        #expect(Decimal.generationSchema.jsonSchema == ["type": "number"])
    }
}

@Suite struct GeneratedContentTests {
    @Test func valuesReadByProperty() throws {
        let content = try GeneratedContent(
            json: #"{"item":"lantern","price":12,"discount":null,"ok":true,"ratio":0.5}"#)
        #expect(try content.value(String.self, forProperty: "item") == "lantern")
        #expect(try content.value(Int.self, forProperty: "price") == 12)
        #expect(try content.value(Int?.self, forProperty: "discount") == nil)
        #expect(try content.value(Int?.self, forProperty: "missing") == nil)
        #expect(try content.value(Bool.self, forProperty: "ok"))
        #expect(try content.value(Double.self, forProperty: "ratio") == 0.5)
        #expect(throws: GeneratedContent.ParsingError.self) { try content.value(Int.self, forProperty: "ratio") }
        #expect(throws: GeneratedContent.ParsingError.self) { try content.value(Int.self, forProperty: "nope") }
        #expect(throws: GeneratedContent.ParsingError.self) { try content.value(String.self, forProperty: "price") }
    }

    @Test func incompleteJSONParsesForStreaming() throws {
        let partial = try GeneratedContent(json: #"{"item":"lan"#)
        #expect(!partial.isComplete)
        #expect(partial.jsonString == #"{"item":"lan"}"#)
        #expect(try GeneratedContent(json: #"{"item":"lantern"}"#).isComplete)
        #expect(throws: GeneratedContent.ParsingError.self) { try GeneratedContent(json: "not json") }
    }

    @Test func equalityIgnoresKeyOrderAndIDs() throws {
        var a = GeneratedContent(properties: ["x": 1, "y": "two"])
        a.id = GenerationID()
        let b = try GeneratedContent(json: #"{"y":"two","x":1}"#)
        #expect(a == b)
        #expect(a.jsonString != b.jsonString)
    }

    @Test func buildersAndConversions() throws {
        let content = GeneratedContent(properties: ["name": "Mira", "coins": [1, 2, 3], "note": Optional<String>.none])
        #expect(content.jsonString == #"{"name":"Mira","coins":[1,2,3],"note":null}"#)
        let elements = GeneratedContent(elements: ["a", 1, true] as [any ConvertibleToGeneratedContent])
        #expect(elements.jsonString == #"["a",1,true]"#)
        let merged = GeneratedContent(
            properties: [("a", 1), ("a", 2)] as [(String, any ConvertibleToGeneratedContent)],
            uniquingKeysWith: { _, new in new })
        #expect(merged.jsonString == #"{"a":2}"#)
        #expect(try [String](GeneratedContent(json: #"["x","y"]"#)) == ["x", "y"])
    }
}
