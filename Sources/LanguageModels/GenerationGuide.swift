import Foundation
import ParleyJSON

/// A constraint on the values a model may generate for a property: choices, ranges, counts, patterns.
///
/// Guides become JSON Schema keywords (`enum`, `minimum`, `maxItems`, `pattern`, ...), which servers with
/// constrained decoding enforce and which Parley checks when it validates structured output.
///
/// ```swift
/// .init(name: "mood", type: String.self, guides: [.anyOf(["calm", "angry"])])
/// .init(name: "price", type: Int.self, guides: [.range(1...500)])
/// .init(name: "items", type: [String].self, guides: [.count(1...3)])
/// ```
public struct GenerationGuide<Value>: Sendable {
    /// The JSON Schema keywords this guide sets; `items` is merged into the element schema.
    let keywords: JSONObject

    init(_ keywords: JSONObject) {
        self.keywords = keywords
    }

    init(_ keyword: String, _ value: JSONValue) {
        self.keywords = JSONObject([(keyword, value)])
    }

    /// Sets the guide's keywords on a schema; element guides are merged into `items`.
    func apply(to document: inout JSONObject) {
        for (key, value) in keywords {
            if key == "items", case .object(let itemKeywords) = value,
                case .object(var items)? = document["items"]
            {
                for (itemKey, itemValue) in itemKeywords { items[itemKey] = itemValue }
                document["items"] = .object(items)
            } else {
                document[key] = value
            }
        }
    }
}

// MARK: - Strings

extension GenerationGuide where Value == String {
    /// The value must be exactly this string.
    ///
    /// - Parameter value: The only allowed value.
    /// - Returns: The guide.
    public static func constant(_ value: String) -> GenerationGuide<String> {
        GenerationGuide("const", .string(value))
    }

    /// The value must be one of these strings.
    ///
    /// - Parameter values: The allowed values.
    /// - Returns: The guide.
    public static func anyOf(_ values: [String]) -> GenerationGuide<String> {
        GenerationGuide("enum", .array(values.map(JSONValue.string)))
    }

    /// The value must match a regular expression (ECMA-262 syntax, as JSON Schema uses).
    ///
    /// Apple's framework takes a Swift `Regex` (`pattern(_:)` with a `Regex` does too); this form takes the JSON
    /// Schema pattern as it is: `.pattern("^[A-Z][a-z]+$")`.
    ///
    /// - Parameter pattern: The regular expression.
    /// - Returns: The guide.
    public static func pattern(_ pattern: String) -> GenerationGuide<String> {
        GenerationGuide("pattern", .string(pattern))
    }

    /// The value must match a Swift regular expression, as in Apple's framework: `.pattern(/[A-Z][a-z]+/)`.
    ///
    /// The regex becomes the JSON Schema `pattern` servers enforce (`RegexPattern` says how Swift's syntax is
    /// rewritten as ECMAScript's). That needs the regex's text, which a literal, `Regex(_:)` from a string and a
    /// `RegexBuilder` regex of plain components have. A regex without one (a builder with a `TryCapture` transform
    /// or a custom component) or with syntax ECMAScript lacks (`(?i)`, possessive quantifiers, atomic groups, ...)
    /// cannot be translated: a session asked for a schema with such a guide throws
    /// `LanguageModelError.unsupportedGenerationGuide`, saying why, before it asks the model, as Apple's throws
    /// `unsupportedGuide`.
    ///
    /// - Parameter regex: The regular expression.
    /// - Returns: The guide.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    public static func pattern<Output>(_ regex: Regex<Output>) -> GenerationGuide<String> {
        guard let text = regex._literalPattern else {
            return GenerationGuide(
                GenerationSchema.unsupportedGuideKeyword,
                .string(
                    "the Regex has no pattern text (it is built with a transform or a custom component), so it "
                        + "cannot become a JSON Schema pattern; write it as a regex literal or pass the pattern "
                        + "as a String"))
        }
        switch RegexPattern.ecmaScript(from: text) {
        case .success(let pattern):
            return GenerationGuide("pattern", .string(pattern))
        case .failure(let refusal):
            return GenerationGuide(
                GenerationSchema.unsupportedGuideKeyword,
                .string("the pattern \(text) cannot become a JSON Schema pattern: \(refusal)"))
        }
    }
}

// MARK: - Numbers

extension GenerationGuide where Value == Int {
    /// The value must be at least `value`.
    ///
    /// - Parameter value: The lowest allowed value.
    /// - Returns: The guide.
    public static func minimum(_ value: Int) -> GenerationGuide<Int> { GenerationGuide("minimum", .integer(value)) }

    /// The value must be at most `value`.
    ///
    /// - Parameter value: The highest allowed value.
    /// - Returns: The guide.
    public static func maximum(_ value: Int) -> GenerationGuide<Int> { GenerationGuide("maximum", .integer(value)) }

    /// The value must be within `range`.
    ///
    /// - Parameter range: The allowed values.
    /// - Returns: The guide.
    public static func range(_ range: ClosedRange<Int>) -> GenerationGuide<Int> {
        GenerationGuide(JSONObject([("minimum", .integer(range.lowerBound)), ("maximum", .integer(range.upperBound))]))
    }
}

extension GenerationGuide where Value == Double {
    /// The value must be at least `value`.
    ///
    /// - Parameter value: The lowest allowed value.
    /// - Returns: The guide.
    public static func minimum(_ value: Double) -> GenerationGuide<Double> {
        GenerationGuide("minimum", .double(value))
    }

    /// The value must be at most `value`.
    ///
    /// - Parameter value: The highest allowed value.
    /// - Returns: The guide.
    public static func maximum(_ value: Double) -> GenerationGuide<Double> {
        GenerationGuide("maximum", .double(value))
    }

    /// The value must be within `range`.
    ///
    /// - Parameter range: The allowed values.
    /// - Returns: The guide.
    public static func range(_ range: ClosedRange<Double>) -> GenerationGuide<Double> {
        GenerationGuide(JSONObject([("minimum", .double(range.lowerBound)), ("maximum", .double(range.upperBound))]))
    }
}

extension GenerationGuide where Value == Float {
    /// The value must be at least `value`.
    ///
    /// - Parameter value: The lowest allowed value.
    /// - Returns: The guide.
    public static func minimum(_ value: Float) -> GenerationGuide<Float> {
        GenerationGuide("minimum", .double(Double(value)))
    }

    /// The value must be at most `value`.
    ///
    /// - Parameter value: The highest allowed value.
    /// - Returns: The guide.
    public static func maximum(_ value: Float) -> GenerationGuide<Float> {
        GenerationGuide("maximum", .double(Double(value)))
    }

    /// The value must be within `range`.
    ///
    /// - Parameter range: The allowed values.
    /// - Returns: The guide.
    public static func range(_ range: ClosedRange<Float>) -> GenerationGuide<Float> {
        GenerationGuide(
            JSONObject([
                ("minimum", .double(Double(range.lowerBound))), ("maximum", .double(Double(range.upperBound))),
            ]))
    }
}

extension GenerationGuide where Value == Decimal {
    /// The value must be at least `value`.
    ///
    /// - Parameter value: The lowest allowed value.
    /// - Returns: The guide.
    public static func minimum(_ value: Decimal) -> GenerationGuide<Decimal> {
        GenerationGuide("minimum", Self.number(value))
    }

    /// The value must be at most `value`.
    ///
    /// - Parameter value: The highest allowed value.
    /// - Returns: The guide.
    public static func maximum(_ value: Decimal) -> GenerationGuide<Decimal> {
        GenerationGuide("maximum", Self.number(value))
    }

    /// The value must be within `range`.
    ///
    /// - Parameter range: The allowed values.
    /// - Returns: The guide.
    public static func range(_ range: ClosedRange<Decimal>) -> GenerationGuide<Decimal> {
        GenerationGuide(JSONObject([("minimum", number(range.lowerBound)), ("maximum", number(range.upperBound))]))
    }

    private static func number(_ value: Decimal) -> JSONValue {
        JSONNumber(text: "\(value)").map(JSONValue.number) ?? .double(NSDecimalNumber(decimal: value).doubleValue)
    }
}

// MARK: - Arrays

extension GenerationGuide {
    /// The array must have at least `count` elements.
    ///
    /// - Parameter count: The fewest elements.
    /// - Returns: The guide.
    public static func minimumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>("minItems", .integer(count))
    }

    /// The array must have at most `count` elements.
    ///
    /// - Parameter count: The most elements.
    /// - Returns: The guide.
    public static func maximumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>("maxItems", .integer(count))
    }

    /// The array must have exactly `count` elements.
    ///
    /// - Parameter count: The number of elements.
    /// - Returns: The guide.
    public static func count<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>(JSONObject([("minItems", .integer(count)), ("maxItems", .integer(count))]))
    }

    /// The array's element count must be within `range`.
    ///
    /// - Parameter range: The allowed counts.
    /// - Returns: The guide.
    public static func count<Element>(_ range: ClosedRange<Int>) -> GenerationGuide<[Element]>
    where Value == [Element] {
        GenerationGuide<[Element]>(
            JSONObject([("minItems", .integer(range.lowerBound)), ("maxItems", .integer(range.upperBound))]))
    }

    /// Every element must follow `guide`.
    ///
    /// - Parameter guide: The guide for elements, for example `.anyOf([...])`.
    /// - Returns: The guide.
    public static func element<Element>(_ guide: GenerationGuide<Element>) -> GenerationGuide<[Element]>
    where Value == [Element] {
        GenerationGuide<[Element]>("items", .object(guide.keywords))
    }
}

// MARK: - Array guides in @Guide

extension GenerationGuide where Value == [Never] {
    // `@Guide(description: "...", .count(3))` is type-checked before the macro sees which array it is on, and an
    // array guide alone does not say its element type. These overloads, as in Apple's framework, let such a guide
    // type-check; the macro writes it again beside the property's type, where the generic ones above apply.

    /// The array must have at least `count` elements (the form `@Guide` type-checks; see `minimumCount(_:)`).
    ///
    /// - Parameter count: The fewest elements.
    /// - Returns: The guide.
    public static func minimumCount(_ count: Int) -> GenerationGuide<[Never]> {
        GenerationGuide("minItems", .integer(count))
    }

    /// The array must have at most `count` elements (the form `@Guide` type-checks; see `maximumCount(_:)`).
    ///
    /// - Parameter count: The most elements.
    /// - Returns: The guide.
    public static func maximumCount(_ count: Int) -> GenerationGuide<[Never]> {
        GenerationGuide("maxItems", .integer(count))
    }

    /// The array must have exactly `count` elements (the form `@Guide` type-checks; see `count(_:)`).
    ///
    /// - Parameter count: The number of elements.
    /// - Returns: The guide.
    public static func count(_ count: Int) -> GenerationGuide<[Never]> {
        GenerationGuide(JSONObject([("minItems", .integer(count)), ("maxItems", .integer(count))]))
    }

    /// The array's element count must be within `range` (the form `@Guide` type-checks; see `count(_:)`).
    ///
    /// - Parameter range: The allowed counts.
    /// - Returns: The guide.
    public static func count(_ range: ClosedRange<Int>) -> GenerationGuide<[Never]> {
        GenerationGuide(
            JSONObject([("minItems", .integer(range.lowerBound)), ("maxItems", .integer(range.upperBound))]))
    }
}
