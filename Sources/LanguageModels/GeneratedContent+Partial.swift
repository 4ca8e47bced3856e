// Reading the snapshots of a streamed response: what the `PartiallyGenerated` types `@Generable` writes call.

extension GeneratedContent {
    /// Reads a property of a structure that may still be being generated: `nil` until the model has begun it.
    ///
    /// A snapshot of a streamed response is JSON cut short, closed where it stopped. Its properties are all there
    /// and complete but the last one, which the model was writing when the snapshot was taken: that one may not
    /// convert yet (half an enumeration case's name, an array whose last element is half written). So the last
    /// property reads as `nil` until it converts, and an array as its first elements, without the unfinished
    /// one; any other property must convert.
    ///
    /// ```swift
    /// let snapshot = try GeneratedContent(json: #"{"item": "lantern", "mood": "cal"#)
    /// try snapshot.partialValue(String.self, forProperty: "item")   // "lantern"
    /// try snapshot.partialValue(Mood.self, forProperty: "mood")     // nil: "cal" is no mood yet
    /// try snapshot.partialValue(Int.self, forProperty: "price")     // nil: not begun
    /// ```
    ///
    /// - Parameters:
    ///   - type: The property's type, usually a `PartiallyGenerated` one.
    ///   - property: The property's name.
    /// - Returns: The value, or `nil` while it is missing, `null` or, as the last property, does not convert yet.
    /// - Throws: `GeneratedContent.ParsingError` when this is not a structure, or a property before the last does
    ///   not fit the type.
    public func partialValue<Value: ConvertibleFromGeneratedContent>(
        _ type: Value.Type = Value.self, forProperty property: String
    ) throws -> Value? {
        guard case .structure(let properties, let keys) = kind else {
            throw ParsingError(
                rawContent: jsonString,
                debugDescription: "Expected an object with the property \"\(property)\", found \(kindName).")
        }
        guard let content = properties[property], content.kind != .null else { return nil }
        do {
            return try value(Value.self, forProperty: property)
        } catch where keys.last == property {
            guard case .array(let elements) = content.kind, !elements.isEmpty else { return nil }
            return try? Value(GeneratedContent(kind: .array(Array(elements.dropLast())), id: content.id))
        }
    }
}
