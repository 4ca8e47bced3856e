// The `@Generable` and `@Guide` macros, declared as Apple's framework declares them. The `LanguageModelsMacros`
// plugin expands them; docs/generable.md shows what they write. They are declared only where Package.swift builds
// the plugin (GENERABLE_MACROS): a macro whose plugin is missing is a warning here, and an error where it is used.

#if GENERABLE_MACROS

/// Makes a struct or an enumeration `Generable`: it writes the schema, both conversions and, for a struct, the
/// type of its partial values.
///
/// ```swift
/// @Generable(description: "A trade offer")
/// struct Offer {
///     @Guide(description: "The item's name")
///     var item: String
///     @Guide(description: "Gold for all of them", .range(1...500))
///     var price: Int
///     var remark: String?
/// }
/// ```
///
/// On a struct, every stored property is generated in the order it is declared: optional properties are not
/// required, nested `Generable` types go under the schema's `$defs`, and `@Guide` gives a property a description
/// and constraints. The macro writes
/// - `static var generationSchema`, the type's JSON Schema, as `GenerationSchema(type:description:properties:)`
///   writes it by hand;
/// - `init(_ content: GeneratedContent) throws` (in an extension, so the memberwise initializer stays), which
///   reads every property and throws `GeneratedContent.ParsingError` for one that is missing or of the wrong type;
/// - `var generatedContent`, the properties in order, leaving out `nil` ones;
/// - `struct PartiallyGenerated`, the type of a streamed response's snapshots: every property optional (a nested
///   `Generable` one as its own `PartiallyGenerated`), and `id`, the generation the snapshot belongs to.
///
/// On an enumeration whose cases have no associated values (a `String`-backed one, for instance), the model chooses
/// one of the cases' names: the schema is `anyOf` the names, and the content is the name as a string.
///
/// Every property needs its type written out (`var price: Int`, not `var price = 0`); classes, actors and
/// enumerations with associated values are refused with an error that says what to do instead.
///
/// - Parameter description: What the type is, for the model.
@attached(extension, conformances: Generable, names: named(init(_:)))
@attached(member, names: named(generationSchema), named(generatedContent), named(PartiallyGenerated))
public macro Generable(description: String? = nil) =
    #externalMacro(module: "LanguageModelsMacros", type: "GenerableMacro")

/// Makes a struct or an enumeration `Generable`, saying whether a struct's optional properties without a value are
/// written as `null` or left out.
///
/// ```swift
/// @Generable(description: "A trade offer", representNilExplicitlyInGeneratedContent: true)
/// struct Offer {
///     var item: String
///     var remark: String?   // required in the schema, `null` allowed; `"remark": null` in generated content
/// }
/// ```
///
/// With `true`, the schema is `GenerationSchema(type:description:representNilExplicitlyInGeneratedContent:properties:)`
/// with `true`: every property is required and an optional one also allows `null`, so the model decides about
/// each; `generatedContent` writes `null` for each optional without a value. With `false`, this is
/// `@Generable(description:)`. Write `true` or `false` itself: the macro reads it from the source.
///
/// - Parameters:
///   - description: What the type is, for the model.
///   - representNilExplicitlyInGeneratedContent: Whether optional properties without a value are written as `null`.
@attached(extension, conformances: Generable, names: named(init(_:)))
@attached(member, names: named(generationSchema), named(generatedContent), named(PartiallyGenerated))
public macro Generable(description: String? = nil, representNilExplicitlyInGeneratedContent: Bool) =
    #externalMacro(module: "LanguageModelsMacros", type: "GenerableMacro")

/// Makes a struct or an enumeration `Generable` under a schema name of its own rather than the type's, as Apple 27's
/// `@Generable(name:description:representNilExplicitlyInGeneratedContent:)` does.
///
/// ```swift
/// extension LookUpStock {
///     @Generable(name: "LookUpStockArguments", description: "What to look up")
///     struct Arguments {
///         var item: String
///     }
/// }
/// ```
///
/// The name is the schema's `title`, its key under `$defs` in the schemas that use the type, and the name of the
/// response format a request for it sends; without it they are the type's name. Two nested types of the same name
/// (the `Arguments` of two tools, both in one schema) are told apart so, and a schema keeps its name when the type
/// is renamed. Everything else is `@Generable(description:representNilExplicitlyInGeneratedContent:)`'s.
///
/// - Parameters:
///   - name: The schema's name.
///   - description: What the type is, for the model.
///   - representNilExplicitlyInGeneratedContent: Whether optional properties without a value are written as `null`;
///     write `true` or `false` itself.
@attached(extension, conformances: Generable, names: named(init(_:)))
@attached(member, names: named(generationSchema), named(generatedContent), named(PartiallyGenerated))
public macro Generable(
    name: String, description: String? = nil, representNilExplicitlyInGeneratedContent: Bool = false
) =
    #externalMacro(module: "LanguageModelsMacros", type: "GenerableMacro")

/// Describes a property of a `@Generable` type to the model.
///
/// ```swift
/// @Guide(description: "The player's name, as they gave it")
/// var name: String
/// ```
///
/// - Parameter description: What the property is; it becomes the property's `description` in the schema.
@attached(peer)
public macro Guide(description: String) = #externalMacro(module: "LanguageModelsMacros", type: "GuideMacro")

/// Describes a property of a `@Generable` type and constrains the values a model may give it.
///
/// ```swift
/// @Guide(description: "Gold for all of them", .range(1...500))
/// var price: Int
/// @Guide(description: "What the merchant says about it", .count(1...3), .element(.pattern("^[A-Z]")))
/// var remarks: [String]
/// ```
///
/// The guides become JSON Schema keywords of the property (`minimum`, `enum`, `maxItems`, `pattern`, ...).
///
/// - Parameters:
///   - description: What the property is, for the model.
///   - guides: Constraints for the property's type: `GenerationGuide<Int>` ones for an `Int`, array guides for an
///     array, and so on.
@attached(peer)
public macro Guide<Value>(description: String? = nil, _ guides: GenerationGuide<Value>...) =
    #externalMacro(module: "LanguageModelsMacros", type: "GuideMacro")

/// Describes a `String` property of a `@Generable` type and constrains it to a regular expression.
///
/// ```swift
/// @Guide(description: "A three-letter code", /[A-Z]{3}/)
/// var code: String
/// ```
///
/// The macro writes the literal into the guide `.pattern(/[A-Z]{3}/)`, `GenerationGuide.pattern(_:)` with a `Regex`,
/// which translates Swift's regex syntax into the ECMA-262 syntax of JSON Schema's `pattern` (`\A` and `\z` become
/// `^` and `$`, for instance). A regex ECMAScript cannot express, such as one with `(?i)` or a possessive quantifier,
/// is refused: a session asked for the type's schema throws `LanguageModelError.unsupportedGenerationGuide`, saying
/// why, before it asks the model. Only a literal works here: for a `Regex` value, pass `.pattern(regex)`.
///
/// - Parameters:
///   - description: What the property is, for the model.
///   - regex: A regex literal the value must match.
@attached(peer)
public macro Guide<RegexOutput>(description: String? = nil, _ regex: Regex<RegexOutput>) =
    #externalMacro(module: "LanguageModelsMacros", type: "GuideMacro")
#endif
