import GameWorld

/// The error thrown when a content pack has errors: all of its diagnostics at once.
public struct ContentErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every diagnostic, errors first, then warnings.
    public var diagnostics: [ContentDiagnostic]

    /// Creates the error.
    ///
    /// - Parameter diagnostics: Every diagnostic of the pack.
    public init(diagnostics: [ContentDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// The errors only.
    public var errors: [ContentDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// One diagnostic per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
