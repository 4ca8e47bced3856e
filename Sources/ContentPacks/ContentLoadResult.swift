import GameWorld

/// What loading a content pack gave: the pack when it has no errors, and every diagnostic.
public struct ContentLoadResult: Sendable, Hashable {
    /// The loaded pack, or `nil` when there is at least one error.
    public var pack: ContentPack?
    /// Every problem found, errors first, then warnings; within each, by file (`world.json`, `items.json`,
    /// then NPCs by file name) and then in the order the loader met them.
    public var diagnostics: [ContentDiagnostic]
    /// How much the pack holds, as far as it could be read.
    public var counts: ContentCounts
    /// The pack's directory as the user named it, for example `Content`.
    public var displayPath: String

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - pack: The loaded pack, if it has no errors.
    ///   - diagnostics: Every problem found.
    ///   - counts: How much the pack holds.
    ///   - displayPath: The pack's directory as the user named it.
    public init(pack: ContentPack?, diagnostics: [ContentDiagnostic], counts: ContentCounts, displayPath: String) {
        self.pack = pack
        self.diagnostics = diagnostics
        self.counts = counts
        self.displayPath = displayPath
    }

    /// The errors.
    public var errors: [ContentDiagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The warnings.
    public var warnings: [ContentDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    /// Whether there is at least one error.
    public var hasErrors: Bool { pack == nil }

    /// The pack, or an error carrying every diagnostic.
    ///
    /// - Returns: The loaded pack.
    /// - Throws: `ContentErrors` with every diagnostic when the pack has errors.
    public func get() throws(ContentErrors) -> ContentPack {
        guard let pack else { throw ContentErrors(diagnostics: diagnostics) }
        return pack
    }
}
