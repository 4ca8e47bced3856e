/// One problem the content loader found: where it is (file and JSON path), what it is, and a hint.
///
/// `description` is the line the checker prints:
///
/// ```
/// Content/npcs/mira.json: $.inventory[2].item: unknown item "silver_swrod" (did you mean "silver_sword"?)
/// Content/npcs/oona.json: $.gol: warning: unknown field "gol" (did you mean "gold"?)
/// ```
public struct ContentDiagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Hashable, Sendable, Codable, Comparable {
        /// The pack cannot be used until it is fixed.
        case error
        /// The pack loads, but something in it looks like a mistake.
        case warning

        /// Errors come before warnings.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    /// Whether this is an error or a warning.
    public var severity: Severity
    /// The file, as the user named the pack's directory: `Content/npcs/mira.json`.
    public var file: String
    /// The JSON path of the value concerned, for example `$.inventory[2].item`; `$` for the whole file.
    public var path: String
    /// What is wrong, for example `unknown item "silver_swrod"`.
    public var message: String
    /// How to fix it, for example `did you mean "silver_sword"?`, or `nil`.
    public var hint: String?
    /// For syntax errors, the line of the problem (from 1); otherwise `nil`.
    public var line: Int?
    /// For syntax errors, the column of the problem (from 1, in bytes); otherwise `nil`.
    public var column: Int?

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - severity: Error or warning.
    ///   - file: The file as the user named the pack's directory.
    ///   - path: The JSON path, `$` for the whole file.
    ///   - message: What is wrong.
    ///   - hint: How to fix it.
    ///   - line: For syntax errors, the line.
    ///   - column: For syntax errors, the column.
    public init(
        _ severity: Severity, file: String, path: String, message: String, hint: String? = nil, line: Int? = nil,
        column: Int? = nil
    ) {
        self.severity = severity
        self.file = file
        self.path = path
        self.message = message
        self.hint = hint
        self.line = line
        self.column = column
    }

    /// `file: path: problem (hint)`, with `warning: ` before the problem of a warning.
    public var description: String {
        let label = severity == .warning ? "warning: " : ""
        let suffix = hint.map { " (\($0))" } ?? ""
        return "\(file): \(path): \(label)\(message)\(suffix)"
    }
}
