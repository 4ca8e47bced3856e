import SwiftSyntax

/// A stored property of a `@Generable` struct, as the macro reads it: its name, its type, and its `@Guide`.
public struct GenerableProperty: Equatable {
    /// The property's name, without backticks: the key in the schema and in generated content.
    public let name: String
    /// How the property is referred to in code: its name, in backticks when written so (`` `default` ``).
    public let identifier: String
    /// The type as written, such as `[String]` or `Int?`.
    public let type: String
    /// The type without its optional, such as `Int` for `Int?`; the same as `type` for a required property.
    public let wrappedType: String
    /// Whether the model may leave the property out (its type is optional).
    public let isOptional: Bool
    /// The `description:` the `@Guide` gives, as the expression written there.
    public let description: String?
    /// The guides the `@Guide` gives, as the expressions written there (a regex literal as `.pattern(/.../)`).
    public let guides: [String]

    /// Creates a property.
    ///
    /// - Parameters:
    ///   - name: The name, without backticks.
    ///   - identifier: The name as code.
    ///   - type: The type as written.
    ///   - wrappedType: The type without its optional.
    ///   - isOptional: Whether the type is optional.
    ///   - description: The guide's description expression.
    ///   - guides: The guide expressions.
    public init(
        name: String, identifier: String, type: String, wrappedType: String, isOptional: Bool,
        description: String? = nil, guides: [String] = []
    ) {
        self.name = name
        self.identifier = identifier
        self.type = type
        self.wrappedType = wrappedType
        self.isOptional = isOptional
        self.description = description
        self.guides = guides
    }

    /// The type of the property in the `PartiallyGenerated` struct: the wrapped type's partial form, optional.
    public var partialType: String { "\(wrappedType).PartiallyGenerated?" }

    // MARK: - Types

    /// Whether a type is an optional, and what it wraps: `T?`, `Optional<T>` and `Swift.Optional<T>`.
    ///
    /// - Parameter type: The type's syntax.
    /// - Returns: The wrapped type, or `nil` when the type is not optional.
    static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        let generic: GenericArgumentClauseSyntax?
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional" {
            generic = identifier.genericArgumentClause
        } else if let member = type.as(MemberTypeSyntax.self), member.name.text == "Optional",
            member.baseType.trimmedDescription == "Swift"
        {
            generic = member.genericArgumentClause
        } else {
            return nil
        }
        guard let arguments = generic?.arguments, arguments.count == 1,
            case .type(let wrapped) = arguments.first!.argument
        else { return nil }
        return wrapped
    }

    /// Whether a type's syntax names a type: `name` itself, or `Self`.
    ///
    /// - Parameters:
    ///   - type: The type's syntax.
    ///   - name: The type to look for.
    /// - Returns: `true` when one of its tokens is that name.
    static func mentions(_ type: TypeSyntax, typeNamed name: String) -> Bool {
        type.tokens(viewMode: .sourceAccurate).contains { token in
            token.text == name || token.text == "`\(name)`" || token.tokenKind == .keyword(.Self)
        }
    }
}
