import Foundation
import ParleyJSON

// Conformances of the standard types Apple's framework makes generable: strings, numbers, Booleans, arrays,
// optionals, `Never` and `GeneratedContent` itself.

extension String: Generable {
    /// `{"type": "string"}`.
    public static var generationSchema: GenerationSchema { .primitive("string") }

    /// Reads a string.
    ///
    /// - Parameter content: String content.
    /// - Throws: `GeneratedContent.ParsingError` for other kinds.
    public init(_ content: GeneratedContent) throws {
        guard case .string(let value) = content.kind else { throw content.mismatch("a string") }
        self = value
    }

    /// The string as content.
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .string(self)) }
}

extension Bool: Generable {
    /// `{"type": "boolean"}`.
    public static var generationSchema: GenerationSchema { .primitive("boolean") }

    /// Reads a Boolean.
    ///
    /// - Parameter content: Boolean content.
    /// - Throws: `GeneratedContent.ParsingError` for other kinds.
    public init(_ content: GeneratedContent) throws {
        guard case .bool(let value) = content.kind else { throw content.mismatch("a Boolean") }
        self = value
    }

    /// The Boolean as content.
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .bool(self)) }
}

extension Int: Generable {
    /// `{"type": "integer"}`.
    public static var generationSchema: GenerationSchema { .primitive("integer") }

    /// Reads an integer; `3.0` reads as 3, `3.5` is an error.
    ///
    /// - Parameter content: Number content with an integer value.
    /// - Throws: `GeneratedContent.ParsingError` for other kinds and fractions.
    public init(_ content: GeneratedContent) throws {
        guard case .number(let value) = content.kind, let int = Int(exactly: value) else {
            throw content.mismatch("an integer")
        }
        self = int
    }

    /// The integer as content.
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Double: Generable {
    /// `{"type": "number"}`.
    public static var generationSchema: GenerationSchema { .primitive("number") }

    /// Reads a number.
    ///
    /// - Parameter content: Number content.
    /// - Throws: `GeneratedContent.ParsingError` for other kinds.
    public init(_ content: GeneratedContent) throws {
        guard case .number(let value) = content.kind else { throw content.mismatch("a number") }
        self = value
    }

    /// The number as content.
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(self)) }
}

extension Float: Generable {
    /// `{"type": "number"}`.
    public static var generationSchema: GenerationSchema { .primitive("number") }

    /// Reads a number.
    ///
    /// - Parameter content: Number content.
    /// - Throws: `GeneratedContent.ParsingError` for other kinds.
    public init(_ content: GeneratedContent) throws {
        guard case .number(let value) = content.kind else { throw content.mismatch("a number") }
        self = Float(value)
    }

    /// The number as content.
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Decimal: Generable {
    /// `{"type": "number"}`.
    public static var generationSchema: GenerationSchema { .primitive("number") }

    /// Reads a number.
    ///
    /// - Parameter content: Number content.
    /// - Throws: `GeneratedContent.ParsingError` for other kinds.
    public init(_ content: GeneratedContent) throws {
        guard case .number(let value) = content.kind else { throw content.mismatch("a number") }
        self = Decimal(value)
    }

    /// The number as content.
    public var generatedContent: GeneratedContent {
        GeneratedContent(kind: .number(NSDecimalNumber(decimal: self).doubleValue))
    }
}

extension Array: ConvertibleFromGeneratedContent where Element: ConvertibleFromGeneratedContent {
    /// Reads an array, converting every element.
    ///
    /// - Parameter content: Array content.
    /// - Throws: `GeneratedContent.ParsingError` for other kinds or an element that does not convert.
    public init(_ content: GeneratedContent) throws {
        guard case .array(let elements) = content.kind else { throw content.mismatch("an array") }
        self = try elements.map(Element.init)
    }
}

extension Array: ConvertibleToGeneratedContent where Element: ConvertibleToGeneratedContent {
    /// The array as content.
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .array(map(\.generatedContent))) }
}

extension Array: Generable where Element: Generable {
    /// The partial form of an array, as in Apple's framework: its elements' partial forms, so an array of
    /// `@Generable` structs shows its last element while the model is still writing it.
    public typealias PartiallyGenerated = [Element.PartiallyGenerated]

    /// `{"type": "array", "items": <element schema>}`.
    public static var generationSchema: GenerationSchema { GenerationSchema.array(of: Element.generationSchema) }
}

extension Optional: ConvertibleFromGeneratedContent where Wrapped: ConvertibleFromGeneratedContent {
    /// Reads `null` as `nil`, anything else as the wrapped type.
    ///
    /// - Parameter content: The content.
    /// - Throws: The wrapped type's error.
    public init(_ content: GeneratedContent) throws {
        if case .null = content.kind {
            self = nil
        } else {
            self = try Wrapped(content)
        }
    }
}

extension Optional: PromptRepresentable where Wrapped: ConvertibleToGeneratedContent {}
extension Optional: InstructionsRepresentable where Wrapped: ConvertibleToGeneratedContent {}

extension Optional: ConvertibleToGeneratedContent where Wrapped: ConvertibleToGeneratedContent {
    /// `nil` as `null`, anything else as the wrapped value's content.
    public var generatedContent: GeneratedContent {
        map(\.generatedContent) ?? GeneratedContent(kind: .null)
    }
}

extension Never: Generable {
    /// `{"not": {}}`, the schema no value follows: a model can never generate a `Never`.
    ///
    /// Apple's framework makes `Never` generable so that it can stand where a generable type is expected but none
    /// can occur, such as the element type of an array guide written before its array's type is known.
    public static var generationSchema: GenerationSchema {
        GenerationSchema(document: JSONObject([("not", .object(JSONObject()))]))
    }

    /// Always throws: there is no value of `Never` to make.
    ///
    /// - Parameter content: Any content.
    /// - Throws: `GeneratedContent.ParsingError`, always.
    public init(_ content: GeneratedContent) throws {
        throw GeneratedContent.ParsingError(
            rawContent: content.jsonString,
            debugDescription: "Never has no values, so no content converts to it; generate another type.")
    }

    /// Never called: there is no value of `Never` to convert.
    public var generatedContent: GeneratedContent {
        switch self {}
    }
}

extension GeneratedContent: Generable {
    /// An object of any shape: `{"type": "object"}`. Tools taking raw content usually give their own schema.
    public static var generationSchema: GenerationSchema { .primitive("object") }

    /// The content itself.
    ///
    /// - Parameter content: Any content.
    public init(_ content: GeneratedContent) throws {
        self = content
    }

    /// The content itself.
    public var generatedContent: GeneratedContent { self }
}

extension GeneratedContent {
    /// The error for content of the wrong kind.
    func mismatch(_ expected: String) -> ParsingError {
        ParsingError(rawContent: jsonString, debugDescription: "Expected \(expected), found \(kindName).")
    }
}
