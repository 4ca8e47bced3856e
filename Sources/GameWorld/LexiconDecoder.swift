import ParleyJSON

/// Reads a lexicon document on its own, outside a pack: the built-in lexicons, compiled into the library, and
/// `Lexicon(json:)`. A pack's `lexicon.json` is read by the content loader (in `ContentPacks`), which decodes it the
/// same way (`ContentReading.decodeLexicon(_:reference:)`) and checks it against the rest of the pack.
package struct LexiconDecoder: ContentReading {
    /// The file diagnostics name.
    package let file: String
    /// Every diagnostic, in the order found.
    package private(set) var diagnostics: [ContentDiagnostic] = []

    /// A decoder whose diagnostics name `file`.
    ///
    /// - Parameter file: The document's name, as diagnostics show it.
    package init(file: String) {
        self.file = file
    }

    /// How many errors were reported so far.
    package var errorCount: Int { diagnostics.lazy.filter { $0.severity == .error }.count }

    /// Collects a diagnostic on `file`.
    package mutating func report(
        _ severity: ContentDiagnostic.Severity, _ path: JSONPath, _ message: String, hint: String?, line: Int?,
        column: Int?
    ) {
        diagnostics.append(
            ContentDiagnostic(
                severity, file: file, path: path.description, message: message, hint: hint, line: line,
                column: column))
    }

    /// Decodes a lexicon document.
    ///
    /// - Parameters:
    ///   - document: The parsed document.
    ///   - file: The document's name, as diagnostics show it.
    ///   - reference: The lexicon a whole document falls back to (see `decodeLexicon(_:reference:)`); `nil` while
    ///     reading the built-in English lexicon itself.
    /// - Returns: The lexicon, `nil` when the document has errors, and every diagnostic.
    package static func decode(
        _ document: JSONValue, file: String, reference: Lexicon? = .english
    ) -> (lexicon: Lexicon?, diagnostics: [ContentDiagnostic]) {
        var decoder = LexiconDecoder(file: file)
        let lexicon = decoder.decodeLexicon(document, reference: reference)
        return (lexicon, decoder.diagnostics)
    }

    /// Parses and decodes a lexicon file.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - file: The file's name, as diagnostics show it.
    ///   - reference: As for `decode(_:file:reference:)`.
    /// - Returns: The lexicon, `nil` when the file is not JSON or has errors, and every diagnostic.
    package static func decode(
        bytes: [UInt8], file: String, reference: Lexicon? = .english
    ) -> (lexicon: Lexicon?, diagnostics: [ContentDiagnostic]) {
        var decoder = LexiconDecoder(file: file)
        guard let document = decoder.parse(bytes) else { return (nil, decoder.diagnostics) }
        let lexicon = decoder.decodeLexicon(document, reference: reference)
        return (lexicon, decoder.diagnostics)
    }
}
