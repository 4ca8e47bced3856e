import ParleyJSON

/// A `Generable` type whose conversions come from `Codable`: write the schema, get the rest.
///
/// `@Generable` writes `init(_:)` and `generatedContent` where its plugin is built (docs/generable.md); this
/// protocol derives both from `Codable` instead, for toolchains without the plugin and for packages that would
/// rather not use it. Property order follows the schema's `x-order`, so generated
/// content lists properties as the schema does.
///
/// ```swift
/// struct Offer: CodableGenerable {
///     var item: String
///     var price: Int
///     static var generationSchema: GenerationSchema {
///         GenerationSchema(type: Offer.self, properties: [
///             .init(name: "item", type: String.self),
///             .init(name: "price", type: Int.self),
///         ])
///     }
/// }
/// ```
public protocol CodableGenerable: Generable, Codable {}

extension CodableGenerable {
    /// Decodes the value from the content's JSON.
    ///
    /// - Parameter content: Generated content.
    /// - Throws: `GeneratedContent.ParsingError` saying which property is missing or has the wrong type.
    public init(_ content: GeneratedContent) throws {
        do {
            self = try JSONValueDecoder().decode(Self.self, from: content.jsonValue)
        } catch let error as DecodingError {
            throw GeneratedContent.ParsingError(
                rawContent: content.jsonString, debugDescription: "Not a \(Self.self): \(error.readableDescription)")
        }
    }

    /// Encodes the value, with properties in the schema's order.
    ///
    /// A value whose `encode(to:)` throws (a non-finite `Double`, or a custom encoding's own error) has no JSON: it
    /// stops a debug build at the assertion and is `null` in a release build.
    public var generatedContent: GeneratedContent {
        do {
            return GeneratedContent(jsonValue: Self.generationSchema.ordering(try JSONValueEncoder().encode(self)))
        } catch {
            assertionFailure("\(Self.self) did not encode: \(error)")
            return GeneratedContent(kind: .null)
        }
    }
}

extension GenerationSchema {
    /// Puts object members in the order of the schema's `x-order`, following `$ref`s, `items` and properties.
    func ordering(_ value: JSONValue) -> JSONValue {
        order(value, by: .object(document), depth: 0)
    }

    private func order(_ value: JSONValue, by schema: JSONValue, depth: Int) -> JSONValue {
        guard depth < 32, case .object(var schema) = schema else { return value }
        // A property `representNilExplicitlyInGeneratedContent` made nullable: its own schema is the other choice.
        if GenerationSchema.isExplicitlyNullable(.object(schema)),
            case .object(let wrapped)? = schema["anyOf"]?.arrayValue?.first(where: {
                $0 != .object(GenerationSchema.nullSchema)
            })
        {
            schema = wrapped
        }
        if let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#/$defs/"),
            case .object(let target)? = document["$defs"]?[String(reference.dropFirst(8))]
        {
            schema = target
        }
        switch value {
        case .object(let object):
            let properties = schema["properties"]?.objectValue ?? JSONObject()
            let preferred = schema["x-order"]?.arrayValue?.compactMap(\.stringValue) ?? properties.keys
            // A required property the encoder left out because it is `nil` is written as `null` when the schema
            // allows that explicitly (`representNilExplicitlyInGeneratedContent`).
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            let keys =
                preferred.filter { key in
                    object.contains(key: key)
                        || (required.contains(key) && GenerationSchema.isExplicitlyNullable(properties[key] ?? .null))
                } + object.keys.filter { !preferred.contains($0) }
            return .object(
                JSONObject(
                    keys.map { key in
                        (key, object[key].map { order($0, by: properties[key] ?? .null, depth: depth + 1) } ?? .null)
                    }))
        case .array(let elements):
            return .array(elements.map { order($0, by: schema["items"] ?? .null, depth: depth + 1) })
        default:
            return value
        }
    }
}

extension DecodingError {
    /// `price: expected Int, found a string` rather than Foundation's long description.
    var readableDescription: String {
        func path(_ context: Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "the value" : "$" + path
        }
        switch self {
        case .keyNotFound(let key, let context):
            return "\(path(context)): the property \"\(key.stringValue)\" is missing"
        case .typeMismatch(let type, let context): return "\(path(context)): expected \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)): expected \(type), found null"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(self)"
        }
    }
}
