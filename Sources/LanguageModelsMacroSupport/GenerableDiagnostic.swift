import SwiftDiagnostics

/// A mistake in a `@Generable` type or a `@Guide`, as the compiler shows it: what is wrong and what to write instead.
public struct GenerableDiagnostic: DiagnosticMessage, Equatable {
    /// What is wrong and what to do.
    public let message: String
    /// A stable name for the mistake, for tests and tools.
    public let diagnosticID: MessageID
    /// `.error` for code the macro cannot expand, `.warning` for code it can but that does not do what it says.
    public let severity: DiagnosticSeverity

    private init(_ id: String, severity: DiagnosticSeverity = .error, _ message: String) {
        self.message = message
        self.diagnosticID = MessageID(domain: "LanguageModelsMacros", id: id)
        self.severity = severity
    }

    /// `@Generable` on a class, an actor, a protocol or an extension.
    ///
    /// - Parameter kind: `class`, `actor`, `protocol` or `extension`.
    /// - Returns: The diagnostic.
    public static func notAStructOrEnum(_ kind: String) -> GenerableDiagnostic {
        GenerableDiagnostic(
            "notAStructOrEnum",
            "@Generable applies to a struct or an enum, not to \(article(kind)) \(kind): generated values are copied "
                + "between tasks and snapshots. Make it a struct, or conform to Generable by hand.")
    }

    /// A stored property written without its type.
    ///
    /// - Parameter name: The property.
    /// - Returns: The diagnostic.
    public static func missingType(_ name: String) -> GenerableDiagnostic {
        GenerableDiagnostic(
            "missingType",
            "@Generable needs the type of '\(name)' written out, such as `var \(name): Int`: the macro reads types "
                + "from the source, before the compiler infers them.")
    }

    /// A property declared with a tuple pattern, `var (a, b): (Int, Int)`.
    ///
    /// - Returns: The diagnostic.
    public static func tuplePattern() -> GenerableDiagnostic {
        GenerableDiagnostic(
            "tuplePattern",
            "@Generable generates one named property at a time; declare each of these properties on its own.")
    }

    /// A property of an implicitly unwrapped optional type, `String!`.
    ///
    /// - Parameters:
    ///   - name: The property.
    ///   - wrapped: The type it wraps.
    /// - Returns: The diagnostic.
    public static func implicitlyUnwrapped(_ name: String, wrapped: String) -> GenerableDiagnostic {
        GenerableDiagnostic(
            "implicitlyUnwrapped",
            "'\(name)' is an implicitly unwrapped optional; write `\(wrapped)?` if the model may leave it out, or "
                + "`\(wrapped)` if it may not.")
    }

    /// A `lazy` property, which cannot be read where generated content is made.
    ///
    /// - Parameter name: The property.
    /// - Returns: The diagnostic.
    public static func lazyProperty(_ name: String) -> GenerableDiagnostic {
        GenerableDiagnostic(
            "lazyProperty",
            "'\(name)' is lazy, and a lazy property cannot be generated; make it a plain stored property, or a "
                + "computed one the model does not generate.")
    }

    /// A property whose type names the type it is in.
    ///
    /// - Parameters:
    ///   - name: The property.
    ///   - type: The `@Generable` type.
    /// - Returns: The diagnostic.
    public static func recursive(_ name: String, type: String) -> GenerableDiagnostic {
        GenerableDiagnostic(
            "recursive",
            "'\(name)' refers to \(type) itself, and a schema that contains itself never ends; give the nested "
                + "values a type of their own.")
    }

    /// Two `@Guide`s on one property, or one `@Guide` for several properties.
    ///
    /// - Returns: The diagnostic.
    public static func ambiguousGuide() -> GenerableDiagnostic {
        GenerableDiagnostic(
            "ambiguousGuide",
            "A @Guide describes one property: declare each property on its own line with at most one @Guide.")
    }

    /// A regex literal guide on a property that is not a `String`.
    ///
    /// - Parameters:
    ///   - name: The property.
    ///   - type: Its type.
    /// - Returns: The diagnostic.
    public static func regexOnNonString(_ name: String, type: String) -> GenerableDiagnostic {
        GenerableDiagnostic(
            "regexOnNonString",
            "A regex guide constrains strings, and '\(name)' is \(article(type)) \(type); use that type's guides, "
                + "such as .range(...) for numbers.")
    }

    /// `@Guide` on something other than a stored property.
    ///
    /// - Returns: The diagnostic.
    public static func guideNotOnStoredProperty() -> GenerableDiagnostic {
        GenerableDiagnostic(
            "guideNotOnStoredProperty",
            "@Guide describes a stored property of a @Generable type; the model does not generate computed or "
                + "static properties, so a guide there would have no effect.")
    }

    /// `@Guide` in a type that is not `@Generable`.
    ///
    /// - Returns: The diagnostic.
    public static func guideOutsideGenerable() -> GenerableDiagnostic {
        GenerableDiagnostic(
            "guideOutsideGenerable", severity: .warning,
            "@Guide has no effect outside a @Generable type; add @Generable to the type, or remove the guide.")
    }

    /// An enumeration case with associated values.
    ///
    /// - Parameter name: The case.
    /// - Returns: The diagnostic.
    public static func associatedValues(_ name: String) -> GenerableDiagnostic {
        GenerableDiagnostic(
            "associatedValues",
            "The case '\(name)' has associated values; a @Generable enum here is a choice among names, so its cases "
                + "cannot carry values. Use a @Generable struct with an enum property for the choice instead.")
    }

    /// `representNilExplicitlyInGeneratedContent:` given something other than `true` or `false`.
    ///
    /// - Returns: The diagnostic.
    public static func notABooleanLiteral() -> GenerableDiagnostic {
        GenerableDiagnostic(
            "notABooleanLiteral",
            "representNilExplicitlyInGeneratedContent takes `true` or `false` written out: the macro reads it from "
                + "the source, before the compiler evaluates anything.")
    }

    /// An enumeration without cases.
    ///
    /// - Parameter type: The enumeration.
    /// - Returns: The diagnostic.
    public static func noCases(_ type: String) -> GenerableDiagnostic {
        GenerableDiagnostic(
            "noCases", "\(type) has no cases, so a model could never generate one; add the cases it may choose.")
    }

    /// `a` or `an`, for the word after it.
    private static func article(_ word: String) -> String {
        guard let first = word.lowercased().first else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }
}
